"""A real CUDA process for RealDriverCheck: holds a share of GPU 0's memory and keeps it busy.

Usage: cuda_hog.py FRACTION [ignore-term]. Allocates FRACTION of the GPU's total memory with plain
allocations (cudaMalloc through PyTorch's allocator), prints "ready <bytes held>", then runs matrix
products until killed. Each line on stdin is a further fraction to hold, answered by another "ready".
With ignore-term, SIGTERM is ignored so only SIGKILL ends it.
"""
import signal
import sys
import threading
import time

import torch

if len(sys.argv) > 2 and sys.argv[2] == "ignore-term":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)

_, total = torch.cuda.mem_get_info()
held = []
lock = threading.Lock()


def hold(fraction):
    block = torch.empty(int(float(fraction) * total), dtype=torch.uint8, device="cuda")
    block.fill_(1)
    torch.cuda.synchronize()
    with lock:
        held.append(block)
        size = sum(b.numel() for b in held)
    print("ready", size, flush=True)


def grow_on_request():
    for line in sys.stdin:
        if line.strip():
            hold(line)


hold(sys.argv[1])
threading.Thread(target=grow_on_request, daemon=True).start()
a = torch.randn(4096, 4096, device="cuda")
while True:
    for _ in range(10):
        a = a @ a
        a = a / a.norm()
    torch.cuda.synchronize()
    time.sleep(0.005)
