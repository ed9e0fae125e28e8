#define _GNU_SOURCE
#include "CSystem.h"
#include <string.h>
#include <netdb.h>
#include <stdio.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/random.h>
#include <malloc.h>

int csystem_limit_malloc_arenas(int arenas) { return arenas > 0 ? mallopt(M_ARENA_MAX, arenas) : 1; }

int csystem_errno(void) { return errno; }

static int epoll_control(int epfd, int op, int fd, uint32_t events, uint64_t data) {
    struct epoll_event ev;
    memset(&ev, 0, sizeof ev);
    ev.events = events;
    ev.data.u64 = data;
    return epoll_ctl(epfd, op, fd, &ev);
}

int csystem_epoll_add(int epfd, int fd, uint32_t events, uint64_t data) {
    return epoll_control(epfd, EPOLL_CTL_ADD, fd, events, data);
}

int csystem_epoll_modify(int epfd, int fd, uint32_t events, uint64_t data) {
    return epoll_control(epfd, EPOLL_CTL_MOD, fd, events, data);
}

int csystem_epoll_remove(int epfd, int fd) {
    struct epoll_event ev;
    memset(&ev, 0, sizeof ev);
    return epoll_ctl(epfd, EPOLL_CTL_DEL, fd, &ev);
}

int csystem_epoll_wait(int epfd, uint32_t *events, uint64_t *data, int capacity, int timeout_ms) {
    struct epoll_event ready[256];
    if (capacity > 256) capacity = 256;
    int n = epoll_wait(epfd, ready, capacity, timeout_ms);
    for (int i = 0; i < n; i++) {
        events[i] = ready[i].events;
        data[i] = ready[i].data.u64;
    }
    return n;
}

int csystem_accept_nonblocking(int listen_fd) {
    return accept4(listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

// Closes `fd` after a failed call, keeping that call's errno for the caller; returns -1.
static int fail_closing(int fd) {
    int saved = errno;
    close(fd);
    errno = saved;
    return -1;
}

static int resolve(const char *host, int port, struct sockaddr_storage *out, socklen_t *length) {
    memset(out, 0, sizeof *out);
    struct sockaddr_in *v4 = (struct sockaddr_in *)out;
    if (inet_pton(AF_INET, host, &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET;
        v4->sin_port = htons((uint16_t)port);
        *length = sizeof *v4;
        return 0;
    }
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)out;
    if (inet_pton(AF_INET6, host, &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons((uint16_t)port);
        *length = sizeof *v6;
        return 0;
    }
    // A name ("localhost"): the resolver's first stream address.
    struct addrinfo hints, *found = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    if (getaddrinfo(host, NULL, &hints, &found) != 0 || found == NULL) {
        errno = EINVAL;
        return -1;
    }
    memcpy(out, found->ai_addr, found->ai_addrlen);
    *length = found->ai_addrlen;
    freeaddrinfo(found);
    if (out->ss_family == AF_INET) ((struct sockaddr_in *)out)->sin_port = htons((uint16_t)port);
    else ((struct sockaddr_in6 *)out)->sin6_port = htons((uint16_t)port);
    return 0;
}

// A stream socket of the right family for host:port, with the address filled in; -1 on failure.
static int socket_for(const char *host, int port, int flags, struct sockaddr_storage *address, socklen_t *length) {
    if (resolve(host, port, address, length) != 0) return -1;
    return socket(address->ss_family, SOCK_STREAM | SOCK_CLOEXEC | flags, 0);
}

// A socket bound to host:port with SO_REUSEADDR (and SO_REUSEPORT when asked), or -1.
static int bound_socket(const char *host, int port, int flags, int reuse_port) {
    struct sockaddr_storage address;
    socklen_t length;
    int fd = socket_for(host, port, flags, &address, &length);
    if (fd < 0) return -1;
    int one = 1;
    if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0 ||
        (reuse_port && setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one) != 0) ||
        bind(fd, (struct sockaddr *)&address, length) != 0) {
        return fail_closing(fd);
    }
    return fd;
}

int csystem_listen_tcp(const char *host, int port, int backlog, int reuse_port) {
    int fd = bound_socket(host, port, SOCK_NONBLOCK, reuse_port);
    if (fd < 0) return -1;
    if (listen(fd, backlog) != 0) return fail_closing(fd);
    return fd;
}

int csystem_probe_port_free(const char *host, int port) {
    int fd = bound_socket(host, port, 0, 0);
    if (fd < 0) return -1;
    close(fd);
    return 0;
}

static int csystem_local_port_of(const struct sockaddr_storage *address) {
    if (address->ss_family == AF_INET) return ntohs(((const struct sockaddr_in *)address)->sin_port);
    if (address->ss_family == AF_INET6) return ntohs(((const struct sockaddr_in6 *)address)->sin6_port);
    return -1;
}

int csystem_local_port(int fd) {
    struct sockaddr_storage address;
    socklen_t length = sizeof address;
    if (getsockname(fd, (struct sockaddr *)&address, &length) != 0) return -1;
    return csystem_local_port_of(&address);
}

int csystem_peer_address(int fd, char *host, int capacity, int *port) {
    struct sockaddr_storage address;
    socklen_t length = sizeof address;
    if (getpeername(fd, (struct sockaddr *)&address, &length) != 0) return -1;
    int v6 = address.ss_family == AF_INET6;
    const void *raw = v6 ? (const void *)&((struct sockaddr_in6 *)&address)->sin6_addr
                         : (const void *)&((struct sockaddr_in *)&address)->sin_addr;
    if (!inet_ntop(address.ss_family, raw, host, (socklen_t)capacity)) return -1;
    *port = csystem_local_port_of(&address);
    return 0;
}

int csystem_connect_tcp(const char *host, int port) {
    struct sockaddr_storage address;
    socklen_t length;
    int fd = socket_for(host, port, 0, &address, &length);
    if (fd < 0) return -1;
    if (connect(fd, (struct sockaddr *)&address, length) != 0) return fail_closing(fd);
    return fd;
}

int csystem_connect_tcp_from(const char *source, const char *host, int port) {
    struct sockaddr_storage address;
    socklen_t length;
    if (resolve(host, port, &address, &length) != 0) return -1;
    int fd = bound_socket(source, 0, 0, 0);
    if (fd < 0) return -1;
    if (connect(fd, (struct sockaddr *)&address, length) != 0) return fail_closing(fd);
    return fd;
}

int csystem_set_nodelay(int fd) {
    int one = 1;
    return setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

int csystem_set_receive_timeout_ms(int fd, int ms) {
    struct timeval tv = { .tv_sec = ms / 1000, .tv_usec = (ms % 1000) * 1000 };
    return setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
}

ssize_t csystem_send(int fd, const void *bytes, size_t count) {
    return send(fd, bytes, count, MSG_NOSIGNAL);
}

void csystem_set_thread_name(const char *name) {
    char shortened[16];
    snprintf(shortened, sizeof shortened, "%s", name);
    pthread_setname_np(pthread_self(), shortened);
}

#define SIGNAL_WAITERS 16
static _Atomic int signal_write_fds[SIGNAL_WAITERS] = {
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1
};
static int signal_read_fds[SIGNAL_WAITERS];

// Async-signal-safe: atomic loads and write(2) only.
static void on_signal(int number) {
    int saved = errno;
    unsigned char byte = (unsigned char)number;
    for (int i = 0; i < SIGNAL_WAITERS; i++) {
        int fd = atomic_load(&signal_write_fds[i]);
        if (fd >= 0) { ssize_t ignored = write(fd, &byte, 1); (void)ignored; }
    }
    errno = saved;
}

int csystem_signal_catch(int number) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_signal;
    action.sa_flags = SA_RESTART;
    sigemptyset(&action.sa_mask);
    if (sigaction(number, &action, NULL) != 0) return -1;
    // A parent (a supervisor, a test runner) may have started us with the signal blocked, and
    // a blocked signal is never delivered. Unblock it in the calling thread; threads started
    // afterwards (the event loops) inherit the mask.
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, number);
    return pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}

int csystem_signal_waiter_open(int *read_fd) {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) return -1;
    fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK);  // a full pipe drops, never blocks
    for (int i = 0; i < SIGNAL_WAITERS; i++) {
        int expected = -1;
        if (atomic_compare_exchange_strong(&signal_write_fds[i], &expected, fds[1])) {
            signal_read_fds[i] = fds[0];
            *read_fd = fds[0];
            return i;
        }
    }
    close(fds[0]);
    close(fds[1]);
    errno = EMFILE;
    return -1;
}

void csystem_signal_waiter_close(int slot) {
    if (slot < 0 || slot >= SIGNAL_WAITERS) return;
    int fd = atomic_exchange(&signal_write_fds[slot], -1);
    if (fd >= 0) close(fd);
    close(signal_read_fds[slot]);
}

void csystem_ignore_sigpipe(void) { signal(SIGPIPE, SIG_IGN); }

int64_t csystem_monotonic_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t csystem_wall_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME_COARSE, &ts);
    return (int64_t)ts.tv_sec;
}

int64_t csystem_wall_milliseconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int csystem_open_directory(const char *path) {
    return open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

int csystem_nameless_file(int dir_fd) {
    int fd = openat(dir_fd, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR)) return fd;
    static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    char name[] = "issue-gateway-body-XXXXXXXXXXXX";
    size_t start = sizeof name - 13;
    for (int attempt = 0; attempt < 100; attempt++) {
        unsigned char random[12];
        if (getrandom(random, sizeof random, 0) != (ssize_t)sizeof random) return -1;
        for (size_t i = 0; i < sizeof random; i++) name[start + i] = letters[random[i] % (sizeof letters - 1)];
        fd = openat(dir_fd, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd >= 0) {
            unlinkat(dir_fd, name, 0);
            return fd;
        }
        if (errno != EEXIST) return -1;
    }
    errno = EEXIST;
    return -1;
}
