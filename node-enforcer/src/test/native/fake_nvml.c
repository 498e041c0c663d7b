/*
 * A fake libnvidia-ml.so.1 for tests on machines without a GPU.
 *
 * It exports the NVML symbols the node enforcer binds, with the real ABI (struct layouts, return
 * codes), and answers from a small text file so a test can change what the "driver" reports between
 * two enforcement cycles. The file is named by the FAKE_NVML_STATE environment variable or by
 * fakeNvmlSetStateFile(); it is re-read whenever it changed (tests replace it atomically with a
 * rename, which gives it a new inode), so every call sees the latest state.
 *
 * State file, one directive per line ('#' starts a comment):
 *   driver <version>
 *   device <index> <totalBytes> <uuid> <name...>      indices 0..n-1, in order
 *   base <device> <bytes>                             memory used outside any listed process
 *   util <device> <gpuPercent> <memoryPercent>
 *   putil <device> <pid> <smPercent> <memoryPercent>  a per-process utilization sample (a process
 *                                                     without one had none, as with the driver)
 *   proc <device> <pid> <usedBytes|-1>                -1: NVML_VALUE_NOT_AVAILABLE
 *   migmode <device> <0|1>                            without it the device is not MIG-capable
 *   mig <device> <migIndex> <totalBytes> <gpuInstanceId> <computeInstanceId> <uuid>
 *   migproc <device> <migIndex> <pid> <usedBytes>
 *   fail <symbol> <code>                              the symbol returns that code (e.g. 15)
 *   understate <device>                               on INSUFFICIENT_SIZE report half the needed
 *                                                     count, as a list that grows between calls does
 *
 * Processes are real: a listed PID that no longer exists (or is a zombie) is dropped, so a process
 * killed by the enforcer shows up as freed memory on the next read.
 *
 * Handles are index + 1 for devices and ((device + 1) << 8 | (migIndex + 1)) for MIG devices, so
 * NULL is never a valid handle.
 *
 * Utilization follows the driver's rules: nvmlDeviceGetUtilizationRates is NOT_SUPPORTED on a MIG
 * device and on a GPU with MIG on; nvmlDeviceGetProcessUtilization is NOT_SUPPORTED there too,
 * returns every sample stamped with the current time (microseconds), NOT_FOUND when no sample is
 * newer than lastSeenTimeStamp, and INSUFFICIENT_SIZE with the needed count for a NULL or short
 * buffer. "fail nvmlDeviceGetProcessUtilization 3" makes a GPU without per-process figures.
 *
 * Compiled with -DFAKE_NVML_LEGACY it leaves out the _v2/_v3 process symbols and
 * nvmlDeviceGetMemoryInfo_v2, like a driver older than 11.6.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>

typedef int nvmlReturn_t;
typedef void *nvmlDevice_t;

typedef struct { unsigned long long total, free, used; } nvmlMemory_t;
typedef struct {
  unsigned int version;
  unsigned long long total, reserved, free, used;
} nvmlMemory_v2_t;
typedef struct {
  unsigned int pid;
  unsigned long long usedGpuMemory;
  unsigned int gpuInstanceId, computeInstanceId;
} nvmlProcessInfo_t;
typedef struct { unsigned int pid; unsigned long long usedGpuMemory; } nvmlProcessInfo_v1_t;
typedef struct { unsigned int gpu, memory; } nvmlUtilization_t;
typedef struct {
  unsigned int pid;
  unsigned long long timeStamp;
  unsigned int smUtil, memUtil, encUtil, decUtil;
} nvmlProcessUtilizationSample_t;

#define MEMORY_V2_VERSION ((unsigned int)(sizeof(nvmlMemory_v2_t) | (2u << 24)))
#define NOT_AVAILABLE 0xFFFFFFFFFFFFFFFFULL
#define NO_INSTANCE 0xFFFFFFFFu

enum {
  OK = 0, UNINITIALIZED = 1, INVALID_ARGUMENT = 2, NOT_SUPPORTED = 3, NOT_FOUND = 6,
  INSUFFICIENT_SIZE = 7, ARGUMENT_VERSION_MISMATCH = 25, UNKNOWN = 999
};

#define MAX_DEVICES 16
#define MAX_MIG 8
#define MAX_PROCS 4096
#define MAX_FAILS 32

typedef struct { int device, mig; unsigned int pid; unsigned long long used; } proc_t;
typedef struct { int device; unsigned int pid, sm, mem; } putil_t;
typedef struct { int present; unsigned long long total; unsigned int gi, ci; char uuid[96]; } mig_t;
typedef struct {
  unsigned long long total, base;
  char uuid[96], name[96];
  int mig_capable, mig_mode, understate;
  unsigned int util_gpu, util_mem;
  mig_t migs[MAX_MIG];
} device_t;

static struct {
  char driver[80];
  int device_count;
  device_t devices[MAX_DEVICES];
  proc_t procs[MAX_PROCS];
  int proc_count;
  putil_t putils[MAX_PROCS];
  int putil_count;
  struct { char symbol[64]; int code; } fails[MAX_FAILS];
  int fail_count;
} state;

static char state_path[4096];
static dev_t loaded_dev;
static ino_t loaded_ino;
static struct timespec loaded_mtime;
static off_t loaded_size;
static int loaded;
static int init_count;

void fakeNvmlSetStateFile(const char *path) {
  snprintf(state_path, sizeof state_path, "%s", path ? path : "");
  loaded = 0;
}

static const char *current_path(void) {
  if (state_path[0]) return state_path;
  const char *env = getenv("FAKE_NVML_STATE");
  return env ? env : "";
}

static void parse_line(char *line) {
  char *hash = strchr(line, '#');
  if (hash) *hash = 0;
  char word[32];
  int d, m, n = 0;
  if (sscanf(line, "%31s%n", word, &n) != 1) return;
  char *rest = line + n;
  if (!strcmp(word, "driver")) {
    sscanf(rest, "%79s", state.driver);
  } else if (!strcmp(word, "device")) {
    unsigned long long total;
    int off = 0;
    char uuid[96];
    if (sscanf(rest, "%d %llu %95s %n", &d, &total, uuid, &off) < 3 || d < 0 || d >= MAX_DEVICES) return;
    device_t *dev = &state.devices[d];
    dev->total = total;
    snprintf(dev->uuid, sizeof dev->uuid, "%s", uuid);
    snprintf(dev->name, sizeof dev->name, "%s", rest + off);
    dev->name[strcspn(dev->name, "\r\n")] = 0;
    if (d + 1 > state.device_count) state.device_count = d + 1;
  } else if (!strcmp(word, "base")) {
    unsigned long long b;
    if (sscanf(rest, "%d %llu", &d, &b) == 2 && d >= 0 && d < MAX_DEVICES) state.devices[d].base = b;
  } else if (!strcmp(word, "util")) {
    unsigned int g, mem;
    if (sscanf(rest, "%d %u %u", &d, &g, &mem) == 3 && d >= 0 && d < MAX_DEVICES) {
      state.devices[d].util_gpu = g;
      state.devices[d].util_mem = mem;
    }
  } else if (!strcmp(word, "putil")) {
    putil_t u;
    if (sscanf(rest, "%d %u %u %u", &u.device, &u.pid, &u.sm, &u.mem) == 4 && state.putil_count < MAX_PROCS)
      state.putils[state.putil_count++] = u;
  } else if (!strcmp(word, "proc") || !strcmp(word, "migproc")) {
    int is_mig = word[0] == 'm';
    long long used;
    unsigned int pid;
    m = -1;
    int got = is_mig ? sscanf(rest, "%d %d %u %lld", &d, &m, &pid, &used)
                     : sscanf(rest, "%d %u %lld", &d, &pid, &used);
    if (got != (is_mig ? 4 : 3) || state.proc_count >= MAX_PROCS) return;
    proc_t *p = &state.procs[state.proc_count++];
    p->device = d;
    p->mig = m;
    p->pid = pid;
    p->used = used < 0 ? NOT_AVAILABLE : (unsigned long long)used;
  } else if (!strcmp(word, "migmode")) {
    if (sscanf(rest, "%d %d", &d, &m) == 2 && d >= 0 && d < MAX_DEVICES) {
      state.devices[d].mig_capable = 1;
      state.devices[d].mig_mode = m;
    }
  } else if (!strcmp(word, "mig")) {
    unsigned long long total;
    unsigned int gi, ci;
    char uuid[96];
    if (sscanf(rest, "%d %d %llu %u %u %95s", &d, &m, &total, &gi, &ci, uuid) != 6) return;
    if (d < 0 || d >= MAX_DEVICES || m < 0 || m >= MAX_MIG) return;
    mig_t *mig = &state.devices[d].migs[m];
    mig->present = 1;
    mig->total = total;
    mig->gi = gi;
    mig->ci = ci;
    snprintf(mig->uuid, sizeof mig->uuid, "%s", uuid);
  } else if (!strcmp(word, "fail")) {
    if (state.fail_count < MAX_FAILS &&
        sscanf(rest, "%63s %d", state.fails[state.fail_count].symbol, &state.fails[state.fail_count].code) == 2)
      state.fail_count++;
  } else if (!strcmp(word, "understate")) {
    if (sscanf(rest, "%d", &d) == 1 && d >= 0 && d < MAX_DEVICES) state.devices[d].understate = 1;
  }
}

/* Re-reads the state file when it changed since the last call; returns 0 when it cannot be read. */
static int refresh(void) {
  const char *path = current_path();
  struct stat st;
  if (!path[0] || stat(path, &st) != 0) return 0;
  if (loaded && st.st_dev == loaded_dev && st.st_ino == loaded_ino && st.st_size == loaded_size &&
      st.st_mtim.tv_sec == loaded_mtime.tv_sec && st.st_mtim.tv_nsec == loaded_mtime.tv_nsec)
    return 1;
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  memset(&state, 0, sizeof state);
  snprintf(state.driver, sizeof state.driver, "%s", "550.54.15");
  char line[512];
  while (fgets(line, sizeof line, f)) parse_line(line);
  fclose(f);
  loaded = 1;
  loaded_dev = st.st_dev;
  loaded_ino = st.st_ino;
  loaded_size = st.st_size;
  loaded_mtime = st.st_mtim;
  return 1;
}

/* Common prologue: injected failure, then initialisation, then a readable state. */
static nvmlReturn_t enter(const char *symbol, int needs_init) {
  if (!refresh()) return UNKNOWN;
  for (int i = 0; i < state.fail_count; i++)
    if (!strcmp(state.fails[i].symbol, symbol)) return state.fails[i].code;
  if (needs_init && init_count <= 0) return UNINITIALIZED;
  return OK;
}

#define ENTER(needs_init)                              \
  do {                                                 \
    nvmlReturn_t entered = enter(__func__, needs_init); \
    if (entered != OK) return entered;                 \
  } while (0)

static int process_alive(unsigned int pid) {
  if (pid == 0 || (kill((pid_t)pid, 0) != 0 && errno == ESRCH)) return 0;
  char path[64], buf[512];
  snprintf(path, sizeof path, "/proc/%u/stat", pid);
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = 0;
  char *close = strrchr(buf, ')');
  return close && close[1] == ' ' && close[2] != 'Z' && close[2] != 'X';
}

/* Resolves a handle: *dev is the device index, *mig the MIG index or -1. */
static int resolve(nvmlDevice_t handle, int *dev, int *mig) {
  uintptr_t h = (uintptr_t)handle;
  if (h == 0) return 0;
  if (h <= 0xFF) {
    *dev = (int)h - 1;
    *mig = -1;
    return *dev < state.device_count;
  }
  *dev = (int)(h >> 8) - 1;
  *mig = (int)(h & 0xFF) - 1;
  return *dev >= 0 && *dev < state.device_count && *mig >= 0 && *mig < MAX_MIG &&
         state.devices[*dev].migs[*mig].present;
}

#define RESOLVE(handle, dev, mig)                               \
  int dev, mig;                                                 \
  if (!resolve(handle, &dev, &mig)) return INVALID_ARGUMENT

static int belongs(const proc_t *p, int dev, int mig) {
  return p->device == dev && (mig < 0 || p->mig == mig);
}

static unsigned long long used_bytes(int dev, int mig) {
  unsigned long long used = mig < 0 ? state.devices[dev].base : 0;
  for (int i = 0; i < state.proc_count; i++) {
    const proc_t *p = &state.procs[i];
    if (belongs(p, dev, mig) && p->used != NOT_AVAILABLE && process_alive(p->pid)) used += p->used;
  }
  return used;
}

static unsigned long long total_bytes(int dev, int mig) {
  return mig < 0 ? state.devices[dev].total : state.devices[dev].migs[mig].total;
}

static nvmlReturn_t copy_string(char *out, unsigned int length, const char *value) {
  if (!out) return INVALID_ARGUMENT;
  if (strlen(value) + 1 > length) return INSUFFICIENT_SIZE;
  strcpy(out, value);
  return OK;
}

/* ---- lifecycle ---- */

nvmlReturn_t nvmlInit_v2(void) {
  ENTER(0);
  init_count++;
  return OK;
}
nvmlReturn_t nvmlInitWithFlags(unsigned int flags) {
  (void)flags;
  ENTER(0);
  init_count++;
  return OK;
}
nvmlReturn_t nvmlInit(void) {
  ENTER(0);
  init_count++;
  return OK;
}
nvmlReturn_t nvmlShutdown(void) {
  ENTER(1);
  init_count--;
  return OK;
}

const char *nvmlErrorString(nvmlReturn_t result) {
  switch (result) {
    case 0: return "Success";
    case 1: return "Uninitialized";
    case 2: return "Invalid Argument";
    case 3: return "Not Supported";
    case 4: return "Insufficient Permissions";
    case 6: return "Not Found";
    case 7: return "Insufficient Size";
    case 9: return "Driver Not Loaded";
    case 13: return "Function Not Found";
    case 15: return "GPU is lost";
    case 25: return "Argument version mismatch";
    default: return "Unknown Error";
  }
}

nvmlReturn_t nvmlSystemGetDriverVersion(char *version, unsigned int length) {
  ENTER(1);
  return copy_string(version, length, state.driver);
}

/* ---- devices ---- */

nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int *count) {
  ENTER(1);
  if (!count) return INVALID_ARGUMENT;
  *count = (unsigned int)state.device_count;
  return OK;
}
nvmlReturn_t nvmlDeviceGetCount(unsigned int *count) {
  ENTER(1);
  if (!count) return INVALID_ARGUMENT;
  *count = (unsigned int)state.device_count;
  return OK;
}

nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t *device) {
  ENTER(1);
  if (!device || index >= (unsigned int)state.device_count) return INVALID_ARGUMENT;
  *device = (nvmlDevice_t)(uintptr_t)(index + 1);
  return OK;
}
nvmlReturn_t nvmlDeviceGetHandleByIndex(unsigned int index, nvmlDevice_t *device) {
  ENTER(1);
  if (!device || index >= (unsigned int)state.device_count) return INVALID_ARGUMENT;
  *device = (nvmlDevice_t)(uintptr_t)(index + 1);
  return OK;
}

nvmlReturn_t nvmlDeviceGetHandleByUUID(const char *uuid, nvmlDevice_t *device) {
  ENTER(1);
  if (!uuid || !device) return INVALID_ARGUMENT;
  for (int d = 0; d < state.device_count; d++) {
    if (!strcmp(state.devices[d].uuid, uuid)) {
      *device = (nvmlDevice_t)(uintptr_t)(d + 1);
      return OK;
    }
    for (int m = 0; m < MAX_MIG; m++)
      if (state.devices[d].migs[m].present && !strcmp(state.devices[d].migs[m].uuid, uuid)) {
        *device = (nvmlDevice_t)(uintptr_t)(((d + 1) << 8) | (m + 1));
        return OK;
      }
  }
  return NOT_FOUND;
}

nvmlReturn_t nvmlDeviceGetIndex(nvmlDevice_t device, unsigned int *index) {
  ENTER(1);
  RESOLVE(device, dev, mig);
  if (!index || mig >= 0) return mig >= 0 ? NOT_SUPPORTED : INVALID_ARGUMENT;
  *index = (unsigned int)dev;
  return OK;
}

nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t device, char *uuid, unsigned int length) {
  ENTER(1);
  RESOLVE(device, dev, mig);
  return copy_string(uuid, length, mig < 0 ? state.devices[dev].uuid : state.devices[dev].migs[mig].uuid);
}

nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t device, char *name, unsigned int length) {
  ENTER(1);
  RESOLVE(device, dev, mig);
  (void)mig;
  return copy_string(name, length, state.devices[dev].name);
}

nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t device, nvmlMemory_t *memory) {
  ENTER(1);
  RESOLVE(device, dev, mig);
  if (!memory) return INVALID_ARGUMENT;
  memory->total = total_bytes(dev, mig);
  memory->used = used_bytes(dev, mig);
  memory->free = memory->used >= memory->total ? 0 : memory->total - memory->used;
  return OK;
}

#ifndef FAKE_NVML_LEGACY
nvmlReturn_t nvmlDeviceGetMemoryInfo_v2(nvmlDevice_t device, nvmlMemory_v2_t *memory) {
  ENTER(1);
  RESOLVE(device, dev, mig);
  if (!memory) return INVALID_ARGUMENT;
  if (memory->version != MEMORY_V2_VERSION) return ARGUMENT_VERSION_MISMATCH;
  memory->total = total_bytes(dev, mig);
  memory->reserved = 0;
  memory->used = used_bytes(dev, mig);
  memory->free = memory->used >= memory->total ? 0 : memory->total - memory->used;
  return OK;
}
#endif

nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t device, nvmlUtilization_t *utilization) {
  ENTER(1);
  RESOLVE(device, dev, mig);
  if (!utilization) return INVALID_ARGUMENT;
  if (mig >= 0 || state.devices[dev].mig_mode) return NOT_SUPPORTED;
  utilization->gpu = state.devices[dev].util_gpu;
  utilization->memory = state.devices[dev].util_mem;
  return OK;
}

nvmlReturn_t nvmlDeviceGetProcessUtilization(nvmlDevice_t device, nvmlProcessUtilizationSample_t *utilization,
                                             unsigned int *processSamplesCount, unsigned long long lastSeenTimeStamp) {
  ENTER(1);
  RESOLVE(device, dev, mig);
  if (!processSamplesCount) return INVALID_ARGUMENT;
  if (mig >= 0 || state.devices[dev].mig_mode) return NOT_SUPPORTED;
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  unsigned long long stamp = (unsigned long long)now.tv_sec * 1000000ULL + (unsigned long long)now.tv_nsec / 1000ULL;
  unsigned int needed = 0;
  for (int i = 0; i < state.putil_count; i++)
    if (state.putils[i].device == dev && process_alive(state.putils[i].pid)) needed++;
  if (needed == 0 || stamp <= lastSeenTimeStamp) return NOT_FOUND;
  if (!utilization || *processSamplesCount < needed) {
    *processSamplesCount = needed;
    return INSUFFICIENT_SIZE;
  }
  unsigned int n = 0;
  for (int i = 0; i < state.putil_count; i++) {
    const putil_t *u = &state.putils[i];
    if (u->device != dev || !process_alive(u->pid)) continue;
    utilization[n].pid = u->pid;
    utilization[n].timeStamp = stamp;
    utilization[n].smUtil = u->sm;
    utilization[n].memUtil = u->mem;
    utilization[n].encUtil = 0;
    utilization[n].decUtil = 0;
    n++;
  }
  *processSamplesCount = n;
  return OK;
}

/* ---- processes ---- */

/* Collects the live processes of a device (or MIG device) into out[0..capacity); returns how many exist. */
static unsigned int live_processes(int dev, int mig, nvmlProcessInfo_t *out, unsigned int capacity) {
  unsigned int n = 0;
  for (int i = 0; i < state.proc_count; i++) {
    const proc_t *p = &state.procs[i];
    if (!belongs(p, dev, mig) || !process_alive(p->pid)) continue;
    if (out && n < capacity) {
      out[n].pid = p->pid;
      out[n].usedGpuMemory = p->used;
      int on_mig = p->mig >= 0;
      out[n].gpuInstanceId = on_mig ? state.devices[dev].migs[p->mig].gi : NO_INSTANCE;
      out[n].computeInstanceId = on_mig ? state.devices[dev].migs[p->mig].ci : NO_INSTANCE;
    }
    n++;
  }
  return n;
}

static nvmlReturn_t size_check(int dev, unsigned int *count, const void *infos, unsigned int needed) {
  if (!count) return INVALID_ARGUMENT;
  if (*count < needed) {
    *count = state.devices[dev].understate && needed > 1 ? needed / 2 : needed;
    return INSUFFICIENT_SIZE;
  }
  if (!infos && needed > 0) return INVALID_ARGUMENT;
  return OK;
}

static nvmlReturn_t processes(nvmlDevice_t device, unsigned int *count, nvmlProcessInfo_t *infos) {
  RESOLVE(device, dev, mig);
  unsigned int needed = live_processes(dev, mig, NULL, 0);
  nvmlReturn_t checked = size_check(dev, count, infos, needed);
  if (checked != OK) return checked;
  *count = live_processes(dev, mig, infos, *count);
  return OK;
}

#ifndef FAKE_NVML_LEGACY
nvmlReturn_t nvmlDeviceGetComputeRunningProcesses_v3(nvmlDevice_t device, unsigned int *count,
                                                     nvmlProcessInfo_t *infos) {
  ENTER(1);
  return processes(device, count, infos);
}
nvmlReturn_t nvmlDeviceGetComputeRunningProcesses_v2(nvmlDevice_t device, unsigned int *count,
                                                     nvmlProcessInfo_t *infos) {
  ENTER(1);
  return processes(device, count, infos);
}
#endif

/* The pre-11.6 symbol: a 16-byte struct without the MIG instance ids. */
nvmlReturn_t nvmlDeviceGetComputeRunningProcesses(nvmlDevice_t device, unsigned int *count,
                                                  nvmlProcessInfo_v1_t *infos) {
  ENTER(1);
  nvmlProcessInfo_t full[MAX_PROCS];
  if (count && *count > MAX_PROCS) *count = MAX_PROCS;
  nvmlReturn_t result = processes(device, count, infos ? full : NULL);
  if (result != OK) return result;
  for (unsigned int i = 0; i < *count; i++) {
    infos[i].pid = full[i].pid;
    infos[i].usedGpuMemory = full[i].usedGpuMemory;
  }
  return OK;
}

/* ---- MIG ---- */

nvmlReturn_t nvmlDeviceGetMigMode(nvmlDevice_t device, unsigned int *current, unsigned int *pending) {
  ENTER(1);
  RESOLVE(device, dev, mig);
  if (!current || !pending || mig >= 0) return INVALID_ARGUMENT;
  if (!state.devices[dev].mig_capable) return NOT_SUPPORTED;
  *current = *pending = (unsigned int)state.devices[dev].mig_mode;
  return OK;
}

nvmlReturn_t nvmlDeviceGetMaxMigDeviceCount(nvmlDevice_t device, unsigned int *count) {
  ENTER(1);
  RESOLVE(device, dev, mig);
  if (!count || mig >= 0) return INVALID_ARGUMENT;
  if (!state.devices[dev].mig_capable) return NOT_SUPPORTED;
  *count = MAX_MIG;
  return OK;
}

nvmlReturn_t nvmlDeviceGetMigDeviceHandleByIndex(nvmlDevice_t device, unsigned int index, nvmlDevice_t *migDevice) {
  ENTER(1);
  RESOLVE(device, dev, mig);
  if (!migDevice || mig >= 0 || index >= MAX_MIG) return INVALID_ARGUMENT;
  if (!state.devices[dev].mig_mode || !state.devices[dev].migs[index].present) return NOT_FOUND;
  *migDevice = (nvmlDevice_t)(uintptr_t)(((dev + 1) << 8) | (int)(index + 1));
  return OK;
}

nvmlReturn_t nvmlDeviceIsMigDeviceHandle(nvmlDevice_t device, unsigned int *isMigDevice) {
  ENTER(1);
  RESOLVE(device, dev, mig);
  (void)dev;
  if (!isMigDevice) return INVALID_ARGUMENT;
  *isMigDevice = mig >= 0;
  return OK;
}

nvmlReturn_t nvmlDeviceGetGpuInstanceId(nvmlDevice_t device, unsigned int *id) {
  ENTER(1);
  RESOLVE(device, dev, mig);
  if (!id) return INVALID_ARGUMENT;
  if (mig < 0) return NOT_SUPPORTED;
  *id = state.devices[dev].migs[mig].gi;
  return OK;
}

nvmlReturn_t nvmlDeviceGetComputeInstanceId(nvmlDevice_t device, unsigned int *id) {
  ENTER(1);
  RESOLVE(device, dev, mig);
  if (!id) return INVALID_ARGUMENT;
  if (mig < 0) return NOT_SUPPORTED;
  *id = state.devices[dev].migs[mig].ci;
  return OK;
}

nvmlReturn_t nvmlDeviceGetDeviceHandleFromMigDeviceHandle(nvmlDevice_t migDevice, nvmlDevice_t *device) {
  ENTER(1);
  RESOLVE(migDevice, dev, mig);
  if (!device) return INVALID_ARGUMENT;
  if (mig < 0) return INVALID_ARGUMENT;
  *device = (nvmlDevice_t)(uintptr_t)(dev + 1);
  return OK;
}
