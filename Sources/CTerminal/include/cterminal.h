#ifndef CTERMINAL_H
#define CTERMINAL_H
/// Saves the terminal's current modes and installs handlers for fatal signals (SIGSEGV, SIGBUS,
/// SIGILL and SIGTRAP from a Swift trap, SIGABRT, SIGFPE) that put the terminal back before the
/// process dies: a crash never leaves a raw terminal. Call before curses changes the modes.
void riffle_terminal_guard_install(void);

/// Restores the saved modes and leaves the alternate screen; async-signal-safe.
void riffle_terminal_guard_restore(void);

/// Installs a handler for SIGINT, SIGTERM and SIGHUP that only records the signal, so the run loop
/// can end cleanly; returns the last signal recorded (0 when none) and clears it.
void riffle_quit_signals_install(void);
int riffle_quit_signal_take(void);

/// Whether the process was continued (SIGCONT, after Ctrl-Z and `fg`) since the last call; the
/// handler is installed by riffle_quit_signals_install. ncurses repaints the screen from its own
/// copy on resume, which holds blanks where the backend wrote grapheme clusters itself.
int riffle_resumed_take(void);
#endif
