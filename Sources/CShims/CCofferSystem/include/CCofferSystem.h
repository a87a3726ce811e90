#ifndef C_COFFER_SYSTEM_H
#define C_COFFER_SYSTEM_H

#include <spawn.h>
#include <stddef.h>
#include <stdint.h>

/// Overwrites `length` bytes at `pointer` with zeros in a way the compiler may not remove.
void coffer_secure_zero(void *pointer, size_t length);

/// Marks the process as not dumpable (no core dumps, no ptrace by same-uid processes). Returns 0 on success.
int coffer_disable_core_dumps(void);

/// Names the calling thread (at most 15 bytes are kept), for `ps -L`, `top -H` and debuggers.
void coffer_name_thread(const char *name);

/// Copies the calling thread's name into `buffer` (at least 16 bytes). Returns 0 on success.
int coffer_thread_name(char *buffer, size_t length);

/// Sets RLIMIT_CORE to 0 (no core files), leaving the process dumpable. Returns 0 on success.
int coffer_disable_core_files(void);

/// Marks the process as not dumpable: no core dumps, and processes of the same uid without
/// CAP_SYS_PTRACE can no longer ptrace it or read its /proc/PID/mem, environ or exe. Returns 0 on success.
int coffer_set_undumpable(void);

/// 1 when the process is dumpable, 0 when not, -1 on error.
int coffer_is_dumpable(void);

/// Makes the allocator give large blocks back to the system when they are freed: allocations of at least
/// `threshold` bytes are mapped on their own (glibc's `M_MMAP_THRESHOLD`, fixed rather than raised by each
/// free), and free memory at the top of the heap above 1 MiB is returned. A daemon's memory then falls
/// back after a burst of large frames. Returns 0 on success.
int coffer_return_large_blocks_to_system(size_t threshold);

/// The usable size of a block `malloc` returned (glibc's `malloc_usable_size`): at least what was asked
/// for, so that zeroing this many bytes before `free` clears all of it.
size_t coffer_allocation_size(void *pointer);

/// Accepts a connection on the listening socket `listening` (glibc's `accept4`): the socket returned is
/// non-blocking and close-on-exec from the start. Returns the descriptor, or -1 with `errno` set.
int coffer_accept_nonblocking(int listening);

/// An `eventfd` (counter 0, close-on-exec), for waking a thread that sleeps in `poll`. Returns the
/// descriptor, or -1 with `errno` set.
int coffer_wake_descriptor(void);

/// Creates a pipe whose two ends are close-on-exec from the start (`pipe2(ends, O_CLOEXEC)`), so no
/// program another thread starts meanwhile inherits them. Returns 0 on success, -1 with `errno` set.
int coffer_open_close_on_exec_pipe(int ends[2]);

/// Adds to `actions` the closing, in the child, of every descriptor from `lowest` up (glibc's
/// `posix_spawn_file_actions_addclosefrom_np`, which Swift's Glibc module does not show). Returns 0 on
/// success, an error number otherwise.
int coffer_spawn_add_close_from(posix_spawn_file_actions_t *actions, int lowest);

/// Fills `length` bytes at `buffer` from the kernel's CSPRNG (`getrandom`, retried after a signal, a large request
/// in several calls). Returns 0, or -1 with `errno` set.
int coffer_random_bytes(void *buffer, size_t length);

/// What an `epoll` registration watches for, and what a wait reports (``coffer_epoll_wait``).
enum {
    /// Bytes to read (`EPOLLIN`).
    COFFER_POLL_READ = 1,
    /// Room to write (`EPOLLOUT`).
    COFFER_POLL_WRITE = 2,
    /// The peer closed or the socket failed (`EPOLLRDHUP`, `EPOLLHUP`, `EPOLLERR`); always watched.
    COFFER_POLL_HANGUP = 4,
};

/// An `epoll` instance, close-on-exec. Returns the descriptor, or -1 with `errno` set.
int coffer_epoll_create(void);

/// Registers `descriptor` with `epoll` (`add` non-zero) or changes its registration, one-shot
/// (`EPOLLONESHOT`) when `one_shot` is non-zero: it watches `interest` (``COFFER_POLL_READ``,
/// ``COFFER_POLL_WRITE``) and hang-ups, and a wait reports `token` for it. Returns 0, or -1 with `errno` set.
int coffer_epoll_watch(int epoll, int descriptor, uint64_t token, unsigned interest, int one_shot, int add);

/// Removes `descriptor` from `epoll`. Returns 0, or -1 with `errno` set.
int coffer_epoll_forget(int epoll, int descriptor);

/// Waits at most `timeout_ms` (-1: without limit) for registrations to be ready; fills `tokens` and `ready`
/// (``COFFER_POLL_READ``, ``COFFER_POLL_WRITE``, ``COFFER_POLL_HANGUP``) for each, up to `capacity`.
/// Returns how many are ready, or -1 with `errno` set.
int coffer_epoll_wait(int epoll, uint64_t *tokens, unsigned *ready, int capacity, int timeout_ms);

/// A file that lives only in memory (`memfd_create`), open across `exec` and ready to be sealed: `name` is what
/// `/proc/PID/fd` shows (`/memfd:NAME`). Returns the descriptor, or -1 with `errno` set.
int coffer_memory_file(const char *name);

/// Seals the memory file `descriptor` against writes, growth, shrinking and further seals. Returns 0, or -1 with
/// `errno` set.
int coffer_seal_memory_file(int descriptor);

#endif
