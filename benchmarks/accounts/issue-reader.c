// Load generator for benchmarks/accounts/run.sh: GETs every account's issue list exactly once, as
// that account, over CONNECTIONS keep-alive connections (one thread each, taking the next account
// from a shared counter), and prints "requests/s requests non-200 seconds". C rather than wrk: wrk
// runs for a fixed duration, a pass here is a fixed set of requests.
//
//   issue-reader HOST PORT ACCOUNTS_FILE QUERY CONNECTIONS
#include "../lib/http1-client.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

static char **ids, **tokens;
static long count;
static atomic_long next_account, ok, failed;
static const char *host, *query;
static int port;

static int connect_to_gateway(void) {
    int fd = http1_connect(host, port);
    if (fd < 0) { perror("connect"); exit(1); }
    return fd;
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
            if (write(fd, request, length) == length) status = http1_read_response(fd, buffer, NULL);
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
