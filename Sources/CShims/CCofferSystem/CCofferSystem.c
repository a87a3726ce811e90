#define _GNU_SOURCE
#include "CCofferSystem.h"

#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/eventfd.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <spawn.h>
#include <sys/socket.h>
#include <unistd.h>

void coffer_secure_zero(void *pointer, size_t length) {
    if (pointer != NULL && length > 0) {
        explicit_bzero(pointer, length);
    }
}

int coffer_disable_core_dumps(void) {
    struct rlimit none = {0, 0};
    int limit = setrlimit(RLIMIT_CORE, &none);
    int dumpable = prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    return (limit == 0 && dumpable == 0) ? 0 : -1;
}

void coffer_name_thread(const char *name) {
    char truncated[16];
    strncpy(truncated, name, sizeof truncated - 1);
    truncated[sizeof truncated - 1] = '\0';
    pthread_setname_np(pthread_self(), truncated);
}

int coffer_thread_name(char *buffer, size_t length) {
    return pthread_getname_np(pthread_self(), buffer, length);
}

int coffer_disable_core_files(void) {
    struct rlimit none = {0, 0};
    return setrlimit(RLIMIT_CORE, &none);
}

int coffer_set_undumpable(void) {
    return prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
}

int coffer_is_dumpable(void) {
    return prctl(PR_GET_DUMPABLE, 0, 0, 0, 0);
}

int coffer_return_large_blocks_to_system(size_t threshold) {
    int mapped = mallopt(M_MMAP_THRESHOLD, (int)threshold);
    int trimmed = mallopt(M_TRIM_THRESHOLD, 1 << 20);
    return (mapped == 1 && trimmed == 1) ? 0 : -1;
}

size_t coffer_allocation_size(void *pointer) {
    return malloc_usable_size(pointer);
}

int coffer_accept_nonblocking(int listening) {
    return accept4(listening, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

int coffer_wake_descriptor(void) {
    return eventfd(0, EFD_CLOEXEC);
}

int coffer_open_close_on_exec_pipe(int ends[2]) {
    return pipe2(ends, O_CLOEXEC);
}

int coffer_spawn_add_close_from(posix_spawn_file_actions_t *actions, int lowest) {
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
}

int coffer_epoll_create(void) {
    return epoll_create1(EPOLL_CLOEXEC);
}

int coffer_epoll_watch(int epoll, int descriptor, uint64_t token, unsigned interest, int one_shot, int add) {
    struct epoll_event event = {0};
    event.events = EPOLLRDHUP | (one_shot ? EPOLLONESHOT : 0);
    if (interest & COFFER_POLL_READ) event.events |= EPOLLIN;
    if (interest & COFFER_POLL_WRITE) event.events |= EPOLLOUT;
    event.data.u64 = token;
    return epoll_ctl(epoll, add ? EPOLL_CTL_ADD : EPOLL_CTL_MOD, descriptor, &event);
}

int coffer_epoll_forget(int epoll, int descriptor) {
    struct epoll_event event = {0};
    return epoll_ctl(epoll, EPOLL_CTL_DEL, descriptor, &event);
}

int coffer_epoll_wait(int epoll, uint64_t *tokens, unsigned *ready, int capacity, int timeout_ms) {
    struct epoll_event events[64];
    if (capacity > 64) capacity = 64;
    int count = epoll_wait(epoll, events, capacity, timeout_ms);
    for (int index = 0; index < count; index++) {
        unsigned flags = 0;
        if (events[index].events & EPOLLIN) flags |= COFFER_POLL_READ;
        if (events[index].events & EPOLLOUT) flags |= COFFER_POLL_WRITE;
        if (events[index].events & (EPOLLRDHUP | EPOLLHUP | EPOLLERR)) flags |= COFFER_POLL_HANGUP;
        tokens[index] = events[index].data.u64;
        ready[index] = flags;
    }
    return count;
}

int coffer_random_bytes(void *buffer, size_t length) {
    size_t filled = 0;
    while (filled < length) {
        ssize_t got = getrandom((char *)buffer + filled, length - filled, 0);
        if (got < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        filled += (size_t)got;
    }
    return 0;
}

int coffer_memory_file(const char *name) {
    return memfd_create(name, MFD_ALLOW_SEALING);
}

int coffer_seal_memory_file(int descriptor) {
    return fcntl(descriptor, F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_GROW | F_SEAL_SHRINK | F_SEAL_SEAL);
}
