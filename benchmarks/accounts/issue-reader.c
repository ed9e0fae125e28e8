// Load generator for benchmarks/accounts/run.sh: GETs every account's issue list exactly once, as
// that account, over CONNECTIONS keep-alive connections (one thread each, taking the next account
// from a shared counter), and prints "requests/s requests non-200 seconds". C rather than wrk: wrk
// runs for a fixed duration, a pass here is a fixed set of requests.
//
//   issue-reader HOST PORT ACCOUNTS_FILE QUERY CONNECTIONS
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum { BUFFER_BYTES = 1 << 20 };

static char **ids, **tokens;
static long count;
static atomic_long next_account, ok, failed;
static const char *host, *query;
static int port;

static int connect_to_gateway(void) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(port)};
    inet_pton(AF_INET, host, &address.sin_addr);
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (connect(fd, (struct sockaddr *)&address, sizeof address) != 0) { perror("connect"); exit(1); }
    return fd;
}

// Reads one response; returns its status, or -1 when the connection closed.
static int read_response(int fd, char *buffer) {
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
    long body = have - (end + 4 - buffer);
    while (body < length) {
        ssize_t n = read(fd, buffer, BUFFER_BYTES);
        if (n <= 0) return -1;
        body += n;
    }
    return status;
}

static void *reader(void *unused) {
    (void)unused;
    char *buffer = malloc(BUFFER_BYTES), request[1024];
    int fd = connect_to_gateway();
    for (long i; (i = atomic_fetch_add(&next_account, 1)) < count;) {
        int length = snprintf(request, sizeof request,
                              "GET /v1/accounts/%s/issues%s HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\n\r\n",
                              ids[i], query, host, tokens[i]);
        int status = -1;
        for (int attempt = 0; attempt < 2 && status < 0; attempt++) {
            if (write(fd, request, length) == length) status = read_response(fd, buffer);
            if (status < 0) { close(fd); fd = connect_to_gateway(); }
        }
        atomic_fetch_add(status == 200 ? &ok : &failed, 1);
    }
    close(fd);
    free(buffer);
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 6) { fprintf(stderr, "usage: issue-reader HOST PORT ACCOUNTS_FILE QUERY CONNECTIONS\n"); return 2; }
    host = argv[1]; port = atoi(argv[2]); query = argv[4];
    int connections = atoi(argv[5]);
    FILE *file = fopen(argv[3], "r");
    if (!file) { perror(argv[3]); return 1; }
    long capacity = 1024;
    ids = malloc(capacity * sizeof *ids); tokens = malloc(capacity * sizeof *tokens);
    char id[256], token[256];
    while (fscanf(file, "%255s %255s", id, token) == 2) {
        if (count == capacity) {
            capacity *= 2;
            ids = realloc(ids, capacity * sizeof *ids); tokens = realloc(tokens, capacity * sizeof *tokens);
        }
        ids[count] = strdup(id); tokens[count] = strdup(token); count++;
    }
    struct timespec start, stop;
    clock_gettime(CLOCK_MONOTONIC, &start);
    pthread_t *threads = malloc(connections * sizeof *threads);
    for (int i = 0; i < connections; i++) pthread_create(&threads[i], NULL, reader, NULL);
    for (int i = 0; i < connections; i++) pthread_join(threads[i], NULL);
    clock_gettime(CLOCK_MONOTONIC, &stop);
    double seconds = (stop.tv_sec - start.tv_sec) + (stop.tv_nsec - start.tv_nsec) / 1e9;
    printf("%.0f %ld %ld %.2f\n", (ok + failed) / seconds, (long)ok + failed, (long)failed, seconds);
    return 0;
}
