#define _GNU_SOURCE
#include "spawn_shim.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <unistd.h>

int vocab_pipe_cloexec(int fds[2]) { return pipe2(fds, O_CLOEXEC) == 0 ? 0 : errno; }

static int give(posix_spawn_file_actions_t *actions, int fd, int target) {
    if (fd < 0) return posix_spawn_file_actions_addopen(actions, target, "/dev/null", target == STDIN_FILENO ? O_RDONLY : O_WRONLY, 0);
    return posix_spawn_file_actions_adddup2(actions, fd, target);
}

int vocab_spawn(pid_t *pid, const char *path, char *const argv[], char *const envp[], int input, int output, int error,
                const char *directory, int own_group) {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    int failure = posix_spawn_file_actions_init(&actions);
    if (failure) return failure;
    failure = posix_spawnattr_init(&attributes);
    if (failure) {
        posix_spawn_file_actions_destroy(&actions);
        return failure;
    }
    sigset_t none, defaults;
    sigemptyset(&none);
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGPIPE);
    sigaddset(&defaults, SIGTERM);
    sigaddset(&defaults, SIGINT);
    sigaddset(&defaults, SIGHUP);
    sigaddset(&defaults, SIGCHLD);
    if (!failure) failure = give(&actions, input, STDIN_FILENO);
    if (!failure) failure = give(&actions, output, STDOUT_FILENO);
    if (!failure) failure = give(&actions, error, STDERR_FILENO);
    /* In the child, after the fork: atomic with respect to the parent's other threads, unlike a
       list of descriptors to close made before it. */
    if (!failure) failure = posix_spawn_file_actions_addclosefrom_np(&actions, STDERR_FILENO + 1);
    if (!failure && directory) failure = posix_spawn_file_actions_addchdir_np(&actions, directory);
    short flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
    if (own_group) {
        flags |= POSIX_SPAWN_SETPGROUP;
        if (!failure) failure = posix_spawnattr_setpgroup(&attributes, 0);
    }
    if (!failure) failure = posix_spawnattr_setsigmask(&attributes, &none);
    if (!failure) failure = posix_spawnattr_setsigdefault(&attributes, &defaults);
    if (!failure) failure = posix_spawnattr_setflags(&attributes, flags);
    if (!failure) failure = posix_spawn(pid, path, &actions, &attributes, argv, envp);
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    return failure;
}
