#!/usr/bin/env bash
# Runs RealDriverCheck on a machine with an NVIDIA GPU, PyTorch and the node enforcer built
# (mvn -pl node-enforcer -am test-compile): the NVML binding against the real driver, and real CUDA
# processes killed by the production enforcement cycle. nvidia-smi's view is recorded beside it, to
# compare with what the binding read. Needs root or the processes' owner (it signals them).
#
#   JAVA      java to use (default: java on the PATH)
#   LIBS      folder holding jna-*.jar and slf4j-api-*.jar (default: the Maven repository)
#   OUT       folder for the record (default: a new temporary folder)
set -u
JAVA=${JAVA:-java}
case "$JAVA" in */*) JAVA=$(realpath "$JAVA") ;; esac
[ -n "${LIBS:-}" ] && LIBS=$(realpath "$LIBS")
OUT=${OUT:-$(mktemp -d)}
mkdir -p "$OUT"
cd "$(dirname "$0")/../../.."   # node-enforcer/
if [ -n "${LIBS:-}" ]; then
  JARS=$(ls "$LIBS"/jna-*.jar "$LIBS"/slf4j-api-*.jar | tr '\n' ':')
else
  JARS=$(ls ~/.m2/repository/net/java/dev/jna/jna/*/jna-*[0-9].jar ~/.m2/repository/org/slf4j/slf4j-api/2*/slf4j-api-*[0-9].jar | tail -n 2 | tr '\n' ':')
fi
NVML=$(ldconfig -p 2>/dev/null | awk '/libnvidia-ml.so.1/ {print $NF; exit}')
[ -z "$NVML" ] && NVML=$(find /usr/local/nvidia /usr/lib /usr/lib64 -name 'libnvidia-ml.so.1' 2>/dev/null | head -n 1)
echo "libnvidia-ml: ${NVML:-not found}; java: $("$JAVA" -version 2>&1 | head -n 1)" | tee "$OUT/environment.txt"
nvidia-smi >>"$OUT/environment.txt" 2>&1
nvidia-smi --query-gpu=timestamp,memory.used,memory.total,utilization.gpu --format=csv -lms 500 >"$OUT/smi-gpu.csv" 2>&1 &
GPU_SAMPLER=$!
nvidia-smi --query-compute-apps=timestamp,pid,used_memory --format=csv -lms 500 >"$OUT/smi-apps.csv" 2>&1 &
APP_SAMPLER=$!
"$JAVA" -Djna.library.path="$(dirname "${NVML:-/usr/lib/libnvidia-ml.so.1}")" \
  -cp "target/classes:target/test-classes:$JARS" \
  io.quotient.enforcer.realgpu.RealDriverCheck src/test/gpu/cuda_hog.py 2>&1 | tee "$OUT/check.txt"
STATUS=${PIPESTATUS[0]}
kill "$GPU_SAMPLER" "$APP_SAMPLER" 2>/dev/null
echo "record in $OUT; exit $STATUS"
exit "$STATUS"
