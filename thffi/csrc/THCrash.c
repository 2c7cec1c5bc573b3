/* The crash report: a fatal signal (SIGSEGV, SIGBUS, SIGFPE, SIGILL,
 * SIGABRT) on a thread that is running a wrapped call writes, before the
 * process dies, which call it was; then the handler that was installed
 * before this one takes the signal (Python's faulthandler, which the
 * generated module enables, prints the Python stack; the default action
 * ends the process). */
#define _XOPEN_SOURCE 700  /* sigaction, SA_ONSTACK */
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include "TH/THGeneral.h"
#include "thffi_private.h"

static const int thffi_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
static const char *const thffi_signal_names[] = {
    "SIGSEGV (segmentation fault)", "SIGBUS (bus error)",
    "SIGFPE (arithmetic error, e.g. an integer division by zero)",
    "SIGILL (illegal instruction)", "SIGABRT (abort)"};
#define THFFI_NSIGNALS (sizeof thffi_signals / sizeof thffi_signals[0])
static struct sigaction thffi_previous[THFFI_NSIGNALS];
static char thffi_module[256];
static int thffi_installed;

/* write(2) of a string: async-signal-safe. */
static void thffi_say(const char *text) {
  size_t n = strlen(text);
  while (n > 0) {
    ssize_t done = write(STDERR_FILENO, text, n);
    if (done <= 0) return;
    text += done;
    n -= (size_t)done;
  }
}

static void thffi_crashed(int sig, siginfo_t *info, void *context) {
  /* This thread's frames: its TLS was set up when it made the call.  (A
   * thread that never made one may have to allocate it here, which a crash
   * inside malloc would deadlock on; those threads are not ours to
   * report, but the lookup cannot tell them apart without that access.) */
  THFFIFrame *frame = THFFI_currentFrame();
  size_t i = 0;
  (void)context;
  while (i < THFFI_NSIGNALS - 1 && thffi_signals[i] != sig) i++;
  if (frame != NULL) {
    thffi_say("\nthffi: fatal signal ");
    thffi_say(thffi_signal_names[i]);
    thffi_say(" during the wrapped call ");
    thffi_say(frame->name);
    thffi_say(" of ");
    thffi_say(thffi_module);
    thffi_say("\n");
  }
  /* Hand the signal on: restore the previous handler, then let the signal
   * happen again.  One sent (kill, raise, abort) is sent again, delivered to
   * it when this returns; a fault recurs when the faulting instruction runs
   * again, so that handler sees its true address and context. */
  sigaction(sig, &thffi_previous[i], NULL);
  if (info == NULL || info->si_code <= 0) raise(sig);
}

void THFFI_installCrashReport(const char *module) {
  struct sigaction action;
  size_t i;
  if (thffi_installed) return;
  thffi_installed = 1;
  strncpy(thffi_module, module, sizeof thffi_module - 1);
  memset(&action, 0, sizeof action);
  action.sa_sigaction = thffi_crashed;
  sigemptyset(&action.sa_mask);
  /* SA_ONSTACK: on the alternate stack where the thread has one (faulthandler
   * gives the thread that enables it one), so a stack overflow is reported. */
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  for (i = 0; i < THFFI_NSIGNALS; i++) sigaction(thffi_signals[i], &action, &thffi_previous[i]);
}
