#ifndef VOCAB_SPAWN_SHIM_H
#define VOCAB_SPAWN_SHIM_H
#include <sys/types.h>

/* A pipe whose two ends close on exec, so that no child started meanwhile by another thread
   inherits them. Returns 0, or an errno. */
int vocab_pipe_cloexec(int fds[2]);

/* Starts `path` with `argv` and `envp` (NULL-terminated). Its standard input, output and error
   are `input`, `output` and `error` (-1: /dev/null), and it inherits no other descriptor, not
   even one another thread opens while it starts: a child must not hold another child's pipe
   open (its reader would never see the end) nor a listening socket or a database. It starts in
   `directory` unless that is NULL, and leads a process group of its own when `own_group` is not
   0. Signals the parent ignores or blocks are restored to their defaults in the child. Returns
   0 and sets *pid, or returns an errno. */
int vocab_spawn(pid_t *pid, const char *path, char *const argv[], char *const envp[], int input, int output, int error,
                const char *directory, int own_group);
#endif
