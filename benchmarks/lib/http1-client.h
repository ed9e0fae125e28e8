// HTTP/1.1 keep-alive client pieces shared by the benchmarks' C load generators
// (benchmarks/accounts/issue-reader.c, benchmarks/surge/surge-reader.c): a TCP connection with
// Nagle off, and reading one response (status, Content-Length body, Retry-After).
#ifndef BENCHMARKS_HTTP1_CLIENT_H
#define BENCHMARKS_HTTP1_CLIENT_H
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

enum { BUFFER_BYTES = 1 << 20 };

// A connection to host:port, or -1 when nothing answers there now.
static int http1_connect(const char *host, int port) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(port)};
    inet_pton(AF_INET, host, &address.sin_addr);
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (connect(fd, (struct sockaddr *)&address, sizeof address) != 0) { close(fd); return -1; }
    return fd;
}

// Reads one response into buffer (BUFFER_BYTES); returns its status, or -1 when the connection
// closed. *retry_after (when not NULL) is the Retry-After header's value in seconds, -1 if absent.
static int http1_read_response(int fd, char *buffer, int *retry_after) {
    long have = 0;
    char *end = NULL;
    while (!end) {
        ssize_t n = read(fd, buffer + have, BUFFER_BYTES - 1 - have);
        if (n <= 0) return -1;
        have += n;
        buffer[have] = 0;
        end = strstr(buffer, "\r\n\r\n");
    }
    int status = atoi(buffer + 9);  // "HTTP/1.1 200"
    *end = 0;  // headers only, for the search
    char *field = strcasestr(buffer, "\r\ncontent-length:");
    long length = field ? atol(field + 17) : 0;
    if (retry_after) {
        field = strcasestr(buffer, "\r\nretry-after:");
        *retry_after = field ? atoi(field + 14) : -1;
    }
    long body = have - (end + 4 - buffer);
    while (body < length) {
        ssize_t n = read(fd, buffer, BUFFER_BYTES);
        if (n <= 0) return -1;
        body += n;
    }
    return status;
}
#endif
