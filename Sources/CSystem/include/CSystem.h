#ifndef CSYSTEM_H
#define CSYSTEM_H
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <signal.h>
#include <fcntl.h>
#include <errno.h>
#include <unistd.h>
#include <stdint.h>
#include <time.h>

// glibc's malloc: caps the arenas threads allocate from (mallopt(M_ARENA_MAX)); returns 1 on
// success. 0 leaves glibc's own limit (eight per core).
int csystem_limit_malloc_arenas(int arenas);

// errno is thread-local through a macro; read it through a function so Swift sees one value.
int csystem_errno(void);

// epoll_event is packed on x86_64, which Swift imports awkwardly; these wrappers keep the packed
// layout on the C side. The 64-bit user data carries the file descriptor or a loop-defined tag.
int csystem_epoll_add(int epfd, int fd, uint32_t events, uint64_t data);
int csystem_epoll_modify(int epfd, int fd, uint32_t events, uint64_t data);
int csystem_epoll_remove(int epfd, int fd);
// Waits and unpacks up to `capacity` ready events into two parallel arrays.
int csystem_epoll_wait(int epfd, uint32_t *events, uint64_t *data, int capacity, int timeout_ms);

// accept4 with SOCK_NONBLOCK | SOCK_CLOEXEC (Glibc's Swift module does not export accept4).
int csystem_accept_nonblocking(int listen_fd);

// A TCP listener (IPv4 or IPv6 literal, or a name resolved to its first address), non-blocking, SO_REUSEADDR and, when `reuse_port`,
// SO_REUSEPORT so that every event loop can own a listener on the same port. Returns the fd or -1.
int csystem_listen_tcp(const char *host, int port, int backlog, int reuse_port);
// 0 when nothing listens on host:port (a bind without SO_REUSEPORT succeeds), else -1 with errno
// (EADDRINUSE). SO_REUSEPORT listeners of the same user would otherwise silently share the port
// with a second server started on it by mistake.
int csystem_probe_port_free(const char *host, int port);
// The locally bound port of a socket, or -1.
int csystem_local_port(int fd);
// The peer's IP address as text ("127.0.0.1", "::1") into `host` and its port into `port`;
// 0 on success.
int csystem_peer_address(int fd, char *host, int capacity, int *port);
// A connected, blocking TCP client socket (tests and tools), or -1.
int csystem_connect_tcp(const char *host, int port);
// The same, its local end bound first to the address `source` (a test posing as another client).
int csystem_connect_tcp_from(const char *source, const char *host, int port);

int csystem_set_nodelay(int fd);
int csystem_set_receive_timeout_ms(int fd, int ms);
// send(2) with MSG_NOSIGNAL: a peer that went away is an EPIPE, never a SIGPIPE.
ssize_t csystem_send(int fd, const void *bytes, size_t count);
// Names the calling thread (15 bytes at most are kept), for top -H and perf.
void csystem_set_thread_name(const char *name);
// Signal waiting without races: `csystem_signal_catch` installs (synchronously, with sigaction) a
// handler that writes the signal's number as one byte into the pipe of every open waiter.
// `csystem_signal_waiter_open` returns a slot (or -1) and the read end of that waiter's pipe.
int csystem_signal_catch(int number);
int csystem_signal_waiter_open(int *read_fd);
void csystem_signal_waiter_close(int slot);
// Discards the signals' default actions (SIGPIPE) process-wide.
void csystem_ignore_sigpipe(void);

// The monotonic clock in nanoseconds and the coarse wall clock in seconds (both vDSO reads).
int64_t csystem_monotonic_ns(void);
int64_t csystem_wall_seconds(void);
int64_t csystem_wall_milliseconds(void);

// A directory opened without following a symbolic link at its last component, close-on-exec
// (O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC): the spool folder, kept open so that its name is never
// looked up again.
int csystem_open_directory(const char *path);
// A new nameless file (mode 0600, read-write, close-on-exec) in the directory `dir_fd`:
// O_TMPFILE; when the filesystem refuses it (EOPNOTSUPP, EISDIR), a randomly named file made with
// O_CREAT | O_EXCL | O_NOFOLLOW relative to `dir_fd` (mkostemp's way, without a path) and
// unlinked at once. -1 with errno on failure.
int csystem_nameless_file(int dir_fd);
#endif
