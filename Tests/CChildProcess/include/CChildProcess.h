#ifndef C_CHILD_PROCESS_H
#define C_CHILD_PROCESS_H

#include <spawn.h>

/// Adds to `actions` the closing, in the child, of every descriptor from `lowest` up (glibc's
/// `posix_spawn_file_actions_addclosefrom_np`, which Swift's Glibc module does not show). Returns 0 on success.
int coffer_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest);

/// Creates a pipe whose two ends are close-on-exec from the start (`pipe2(ends, O_CLOEXEC)`). Returns 0 on success.
int coffer_pipe_close_on_exec(int ends[2]);

#endif
