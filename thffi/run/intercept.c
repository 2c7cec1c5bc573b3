/* The library `python -m thffi run` preloads (LD_PRELOAD) into every
 * program its command starts, as Bear's and scan-build's intercept
 * libraries do: it wraps the C library's exec functions and posix_spawn,
 * and when the program to be started is a compiler thffi has rules for,
 * by whatever path or name it is started, it starts thffi's compiler shim
 * (run/shims.py) instead, as
 *
 *     SHIM KIND PROGRAM ARGV0 ARGS...
 *
 * KIND: nvcc, cc (a C driver: gcc, cc) or c++ (g++, c++); PROGRAM: the
 * compiler's path, found on PATH as the C library would find it for the
 * p-functions; ARGV0 ARGS...: the argument vector as given.  The shim
 * applies thffi/toolchain/'s rules to ARGS and execs PROGRAM.
 *
 * The compilers, by the last word of their path: nvcc; gcc, cc, g++,
 * c++, also with a release after them (gcc-12, g++-12.2) or a target
 * before them (x86_64-linux-gnu-gcc-12; two words at least, so c89-gcc,
 * a script that runs gcc, is not one, and gcc-ar is no compiler).
 *
 * A compiler's path that is no file and matches one of the patterns of
 * THFFI_RUN_GONE at load (toolchain/compilers.py's rows: 2018's
 * /usr/local/cuda-8.0/bin/nvcc, /usr/bin/gcc-5) goes to the shim too,
 * which starts today's compiler of its kind in its place (and eaccess, which
 * GNU make asks first, says such a path can be run).
 *
 * Everything else is the C library's own call, untouched, and so is a
 * compiler started:
 * - where THFFI_RUN_COMPILER (the shim's absolute path) was not in the
 *   environment when the library was loaded (a copy of LD_PRELOAD outside
 *   a run);
 * - from the shim's own folder (thffi run's `nvcc` on PATH, which applies
 *   the rules itself);
 * - with THFFI_RUN_PASS in the environment the new program gets: the shim
 *   sets it for what it runs and for the compiler it starts, so that
 *   there is no loop, and what a compiler starts (cc1, as, ld, nvcc's host
 *   gcc, which get the flags the compiler was given) runs as it is.
 * Should starting the shim fail, the original call is made.
 *
 * The exec functions run in vfork children (posix_spawn, Python's
 * subprocess): nothing here allocates, prints or takes a lock; the work is
 * on the stack, the C library's functions are found once, when the library
 * is loaded, and errno is what the C library's call leaves. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

extern char **environ;

typedef int execve_fn(const char *, char *const[], char *const[]);
typedef int execv_fn(const char *, char *const[]);
typedef int spawn_fn(pid_t *, const char *, const posix_spawn_file_actions_t *,
                     const posix_spawnattr_t *, char *const[], char *const[]);
typedef int access_fn(const char *, int);

static execve_fn *real_execve, *real_execvpe;
static execv_fn *real_execv, *real_execvp;
static spawn_fn *real_posix_spawn, *real_posix_spawnp;
static access_fn *real_eaccess, *real_euidaccess;

/* THFFI_RUN_COMPILER as it was at load ("" when unset), and the length of
 * its folder with the '/'. */
static char shim[PATH_MAX];
static size_t shim_folder;
/* THFFI_RUN_GONE as it was at load: patterns separated by ':'. */
static char gone_patterns[4096];

static const char PASS[] = "THFFI_RUN_PASS=";

static void resolve(void)
{
  real_execve = (execve_fn *)dlsym(RTLD_NEXT, "execve");
  real_execvpe = (execve_fn *)dlsym(RTLD_NEXT, "execvpe");
  real_execv = (execv_fn *)dlsym(RTLD_NEXT, "execv");
  real_execvp = (execv_fn *)dlsym(RTLD_NEXT, "execvp");
  real_posix_spawn = (spawn_fn *)dlsym(RTLD_NEXT, "posix_spawn");
  real_posix_spawnp = (spawn_fn *)dlsym(RTLD_NEXT, "posix_spawnp");
  real_eaccess = (access_fn *)dlsym(RTLD_NEXT, "eaccess");
  real_euidaccess = (access_fn *)dlsym(RTLD_NEXT, "euidaccess");
}

__attribute__((constructor)) static void load(void)
{
  int saved = errno;
  const char *value = getenv("THFFI_RUN_COMPILER");
  resolve();
  if (value && value[0] == '/' && strlen(value) < sizeof shim) {
    strcpy(shim, value);
    shim_folder = (size_t)(strrchr(shim, '/') - shim) + 1;
  }
  value = getenv("THFFI_RUN_GONE");
  if (value && strlen(value) < sizeof gone_patterns)
    strcpy(gone_patterns, value);
  errno = saved;
}

/* A program called before load() ran (another library's constructor). */
#define REAL(name) (real_##name ? real_##name : (resolve(), real_##name))

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* "nvcc", "cc" or "c++" for a compiler's path or name, else NULL. */
static const char *compiler_kind(const char *path)
{
  static const struct { const char *name, *kind; } drivers[] = {
    {"gcc", "cc"}, {"cc", "cc"}, {"g++", "c++"}, {"c++", "c++"}};
  const char *slash = strrchr(path, '/');
  const char *name = slash ? slash + 1 : path;
  size_t end = strlen(name), i = end, k;
  if (strcmp(name, "nvcc") == 0)
    return "nvcc";
  while (i > 0 && (is_digit(name[i - 1]) || name[i - 1] == '.'))
    i--;
  if (i < end && i > 1 && name[i - 1] == '-' && is_digit(name[i]))
    end = i - 1;  /* a release after the name: gcc-12 */
  for (k = 0; k < sizeof drivers / sizeof drivers[0]; k++) {
    size_t n = strlen(drivers[k].name);
    if (end < n || memcmp(name + end - n, drivers[k].name, n) != 0)
      continue;
    if (end == n)
      return drivers[k].kind;
    /* a target before the name: x86_64-linux-gnu-gcc */
    if (end > n + 1 && name[end - n - 1] == '-' && memchr(name, '-', end - n - 1))
      return drivers[k].kind;
  }
  return NULL;
}

static int passes(char *const envp[])
{
  for (; envp && *envp; envp++)
    if (strncmp(*envp, PASS, sizeof PASS - 1) == 0)
      return 1;
  return 0;
}

static int executable(const char *path)
{
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* Whether text[0, n) matches pattern[0, m), where '*' stands for any run
 * of characters but '/'. */
static int matches(const char *pattern, size_t m, const char *text, size_t n)
{
  if (m == 0)
    return n == 0;
  if (pattern[0] == '*') {
    size_t i;
    for (i = 0; i <= n; i++) {
      if (matches(pattern + 1, m - 1, text + i, n - i))
        return 1;
      if (i < n && text[i] == '/')
        return 0;
    }
    return 0;
  }
  return n > 0 && pattern[0] == text[0] && matches(pattern + 1, m - 1, text + 1, n - 1);
}

/* Whether `path` is a gone compiler's: no file is there, and it matches one
 * of gone_patterns. */
static int gone(const char *path)
{
  struct stat st;
  const char *p = gone_patterns, *end;
  if (!*p || lstat(path, &st) == 0)
    return 0;
  for (;; p = end + 1) {
    end = strchrnul(p, ':');
    if (end > p && matches(p, (size_t)(end - p), path, strlen(path)))
      return 1;
    if (!*end)
      return 0;
  }
}

/* The kind of compiler `path` names, if its start goes to the shim: not
 * where it is no program (shells and Python try each folder of PATH in
 * turn: that call fails as it would have, and the next is tried), but
 * for a gone compiler's path. */
static const char *caught(const char *path, char *const envp[])
{
  const char *kind;
  if (!shim[0] || !(kind = compiler_kind(path)) || passes(envp))
    return NULL;
  if (strncmp(path, shim, shim_folder) == 0 && !strchr(path + shim_folder, '/'))
    return NULL;
  return executable(path) || gone(path) ? kind : NULL;
}

/* The program execvp would start for `name` (no '/'): the first folder of
 * PATH (the C library's default where PATH is unset; an empty entry is the
 * current folder) holding an executable file of that name, written into
 * found; 0 where there is none. */
static int search_path(const char *name, char found[PATH_MAX])
{
  const char *path = getenv("PATH"), *end;
  size_t length = strlen(name);
  if (!path)
    path = "/bin:/usr/bin";
  for (;; path = end + 1) {
    size_t folder;
    end = strchrnul(path, ':');
    folder = (size_t)(end - path);
    if (folder + length + 3 <= PATH_MAX) {
      if (folder)
        memcpy(found, path, folder);
      else
        found[folder++] = '.';
      found[folder] = '/';
      memcpy(found + folder + 1, name, length + 1);
      if (executable(found))
        return 1;
    }
    if (!*end)
      return 0;
  }
}

static size_t count(char *const argv[])
{
  size_t n = 0;
  while (argv && argv[n])
    n++;
  return n;
}

/* The shim's argument vector for argv (argc > 0) into args[argc + 4]. */
static void shim_args(char **args, const char *kind, const char *program,
                      char *const argv[], size_t argc)
{
  args[0] = shim;
  args[1] = (char *)kind;
  args[2] = (char *)program;
  memcpy(args + 3, argv, argc * sizeof argv[0]);
  args[argc + 3] = NULL;
}

/* Starts the shim for `program` in place of this process; returns only if
 * it could not be started. */
static void exec_shim(const char *kind, const char *program, char *const argv[],
                      char *const envp[])
{
  size_t argc = count(argv);
  if (argc) {
    char *args[argc + 4];
    shim_args(args, kind, program, argv, argc);
    REAL(execve)(shim, args, envp);
  }
}

/* Starts the shim for `program` as a child; -1 where it could not be
 * started (the caller then makes the original call), else posix_spawn's 0. */
static int spawn_shim(pid_t *pid, const char *kind, const char *program,
                      const posix_spawn_file_actions_t *actions,
                      const posix_spawnattr_t *attributes, char *const argv[],
                      char *const envp[])
{
  size_t argc = count(argv);
  if (argc) {
    char *args[argc + 4];
    shim_args(args, kind, program, argv, argc);
    if (REAL(posix_spawn)(pid, shim, actions, attributes, args, envp) == 0)
      return 0;
  }
  return -1;
}

int execve(const char *path, char *const argv[], char *const envp[])
{
  int saved = errno;
  const char *kind = caught(path, envp);
  if (kind)
    exec_shim(kind, path, argv, envp);
  errno = saved;
  return REAL(execve)(path, argv, envp);
}

int execv(const char *path, char *const argv[])
{
  int saved = errno;
  const char *kind = caught(path, environ);
  if (kind)
    exec_shim(kind, path, argv, environ);
  errno = saved;
  return REAL(execv)(path, argv);
}

/* execvp and execvpe: a name without '/' is looked for on PATH. */
static void exec_searched(const char *file, char *const argv[], char *const envp[])
{
  char found[PATH_MAX];
  const char *kind;
  if (strchr(file, '/'))
    kind = caught(file, envp);
  else
    kind = shim[0] && compiler_kind(file) && search_path(file, found) ?
      caught(file = found, envp) : NULL;
  if (kind)
    exec_shim(kind, file, argv, envp);
}

int execvp(const char *file, char *const argv[])
{
  int saved = errno;
  exec_searched(file, argv, environ);
  errno = saved;
  return REAL(execvp)(file, argv);
}

int execvpe(const char *file, char *const argv[], char *const envp[])
{
  int saved = errno;
  exec_searched(file, argv, envp);
  errno = saved;
  return REAL(execvpe)(file, argv, envp);
}

int posix_spawn(pid_t *pid, const char *path, const posix_spawn_file_actions_t *actions,
                const posix_spawnattr_t *attributes, char *const argv[], char *const envp[])
{
  int saved = errno;
  const char *kind = caught(path, envp);
  if (kind && spawn_shim(pid, kind, path, actions, attributes, argv, envp) == 0)
    return 0;
  errno = saved;
  return REAL(posix_spawn)(pid, path, actions, attributes, argv, envp);
}

int posix_spawnp(pid_t *pid, const char *file, const posix_spawn_file_actions_t *actions,
                 const posix_spawnattr_t *attributes, char *const argv[], char *const envp[])
{
  int saved = errno;
  char found[PATH_MAX];
  const char *kind, *program = file;
  if (strchr(file, '/'))
    kind = caught(file, envp);
  else
    kind = shim[0] && compiler_kind(file) && search_path(file, found) ?
      caught(program = found, envp) : NULL;
  if (kind && spawn_shim(pid, kind, program, actions, attributes, argv, envp) == 0)
    return 0;
  errno = saved;
  return REAL(posix_spawnp)(pid, file, actions, attributes, argv, envp);
}

/* GNU make (4.3) asks eaccess whether a recipe's program can be run before
 * it spawns it, and fails the recipe itself where it cannot: a gone
 * compiler's path can be run, under the run (and only read-or-run). */
static int runnable_gone(const char *path, int mode)
{
  return shim[0] && !(mode & W_OK) && compiler_kind(path) && !passes(environ) && gone(path);
}

int eaccess(const char *path, int mode)
{
  int saved = errno;
  if (runnable_gone(path, mode))
    return errno = saved, 0;
  return REAL(eaccess)(path, mode);
}

int euidaccess(const char *path, int mode)
{
  int saved = errno;
  if (runnable_gone(path, mode))
    return errno = saved, 0;
  return REAL(euidaccess)(path, mode);
}

/* The execl functions: their arguments as a vector, to the functions
 * above (the C library's own execl calls its execve directly). */
#define VECTOR(first, args, rest)                                   \
  size_t argc = 1;                                                  \
  va_list rest;                                                     \
  va_start(rest, first);                                            \
  while (va_arg(rest, char *))                                      \
    argc++;                                                         \
  va_end(rest);                                                     \
  char *args[argc + 1];                                             \
  args[0] = (char *)first;                                          \
  va_start(rest, first);                                            \
  for (size_t i = 1; i <= argc; i++)                                \
    args[i] = va_arg(rest, char *);  /* the last: the NULL */

int execl(const char *path, const char *arg, ...)
{
  VECTOR(arg, args, rest)
  va_end(rest);
  return execv(path, args);
}

int execlp(const char *file, const char *arg, ...)
{
  VECTOR(arg, args, rest)
  va_end(rest);
  return execvp(file, args);
}

int execle(const char *path, const char *arg, ...)
{
  VECTOR(arg, args, rest)
  char *const *envp = va_arg(rest, char *const *);
  va_end(rest);
  return execve(path, args, envp);
}
