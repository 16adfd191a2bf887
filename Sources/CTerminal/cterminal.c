#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include "cterminal.h"

static struct termios saved_modes;
static volatile sig_atomic_t have_saved_modes = 0;
static volatile sig_atomic_t quit_signal = 0;
static volatile sig_atomic_t resumed = 0;

// Show the cursor, reset attributes, stop mouse reporting, leave the alternate screen.
static const char reset_sequence[] = "\033[0m\033[?1000l\033[?1002l\033[?1006l\033[?25h\033[?1049l";

void riffle_terminal_guard_restore(void) {
    if (have_saved_modes) tcsetattr(STDIN_FILENO, TCSANOW, &saved_modes);
    ssize_t ignored = write(STDOUT_FILENO, reset_sequence, sizeof reset_sequence - 1);
    (void)ignored;
}

static void on_fatal_signal(int sig) {
    riffle_terminal_guard_restore();
    signal(sig, SIG_DFL);
    raise(sig);
}

void riffle_terminal_guard_install(void) {
    if (tcgetattr(STDIN_FILENO, &saved_modes) == 0) have_saved_modes = 1;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_fatal_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESETHAND;
    int fatal[] = { SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE };
    for (unsigned i = 0; i < sizeof fatal / sizeof fatal[0]; i++) sigaction(fatal[i], &action, NULL);
}

static void on_quit_signal(int sig) { quit_signal = sig; }

static void on_continue(int sig) { (void)sig; resumed = 1; }

void riffle_quit_signals_install(void) {
    // A parent may have started us with signals blocked (a blocked mask survives exec): unblock the
    // ones a terminal program lives by, or resizes and Ctrl-C would silently never arrive.
    sigset_t wanted;
    sigemptyset(&wanted);
    int lifeline[] = { SIGWINCH, SIGINT, SIGTERM, SIGHUP, SIGTSTP, SIGCONT };
    for (unsigned i = 0; i < sizeof lifeline / sizeof lifeline[0]; i++) sigaddset(&wanted, lifeline[i]);
    sigprocmask(SIG_UNBLOCK, &wanted, NULL);

    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_quit_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0;  // no SA_RESTART: a blocking read returns so the loop sees the flag
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
    sigaction(SIGHUP, &action, NULL);

    action.sa_handler = on_continue;
    action.sa_flags = SA_RESTART;
    sigaction(SIGCONT, &action, NULL);
}

int riffle_quit_signal_take(void) {
    int sig = quit_signal;
    quit_signal = 0;
    return sig;
}

int riffle_resumed_take(void) {
    int was = resumed;
    resumed = 0;
    return was;
}
