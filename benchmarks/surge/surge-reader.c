// Load generator for benchmarks/surge/run.sh: publication morning. Every account of a
// `surge-load` database, in a random order, fetches its issue list once and then asks for a token
// for the new issue, over CONNECTIONS keep-alive connections spread over the gateway's ports (one
// thread each, taking the next account from a shared counter). The secret of account bench-N is
// surge-SEED-N (Sources/Benchmarks/SurgeLoad.swift). A reader whose request is cut (the gateway
// killed) or answered 503 (the database away) tries again until it is served or DEADLINE seconds
// have passed since the start: "every reader served" is what the run measures.
//
// `devices` mode is the acknowledged-write stream beside the surge: each account registers one
// more device (POST /v1/accounts/{id}/devices), and every token answered 2xx is appended to
// ACK_FILE at once, for the check after a kill that nothing acknowledged was lost.
//
//   surge-reader surge   HOST PORTS ACCOUNTS SEED ISSUE CONNECTIONS DEADLINE PROGRESS_FILE
//   surge-reader devices HOST PORTS ACCOUNTS SEED ACK_FILE CONNECTIONS DEADLINE PROGRESS_FILE
// PORTS is comma-separated. Prints key=value lines.
#include "../lib/http1-client.h"
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

enum { MAX_PORTS = 16 };

static const char *host, *seed, *issue, *mode;
static int ports[MAX_PORTS], port_count, ack_fd = -1;
static long accounts, *order;
static double deadline, started;
static atomic_long next_index, served, unserved, list_ok, list_other, token_ok, token_refused, token_other;
static atomic_long retries_503, retries_cut, retry_after_missing, device_ok, device_other;

typedef struct { uint32_t *values; long count, capacity; } Latencies;
typedef struct { int port; Latencies lists, tokens; } Worker;

static double now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void note(Latencies *l, double seconds) {
    if (l->count == l->capacity) {
        l->capacity = l->capacity ? l->capacity * 2 : 4096;
        l->values = realloc(l->values, l->capacity * sizeof *l->values);
    }
    l->values[l->count++] = (uint32_t)(seconds * 1e6);
}

// Sends one request until it is answered with anything but 503 (or the deadline passes: -1).
static int exchange(int *fd, int port, const char *request, int length, char *buffer, Latencies *latencies) {
    for (;;) {
        if (now_seconds() > deadline) return -1;
        if (*fd < 0 && (*fd = http1_connect(host, port)) < 0) { usleep(50000); continue; }
        double sent = now_seconds();
        int retry_after = -1, status = -1;
        if (write(*fd, request, length) == length) status = http1_read_response(*fd, buffer, &retry_after);
        if (status < 0) {
            close(*fd); *fd = -1;
            atomic_fetch_add(&retries_cut, 1);
            continue;
        }
        if (status == 503) {  // the database is away: told when to come back
            atomic_fetch_add(&retries_503, 1);
            if (retry_after < 0) atomic_fetch_add(&retry_after_missing, 1);
            usleep(100000);
            continue;
        }
        note(latencies, now_seconds() - sent);
        return status;
    }
}

static void *surge(void *argument) {
    Worker *worker = argument;
    char *buffer = malloc(BUFFER_BYTES), request[1024];
    int fd = -1;
    for (long i; (i = atomic_fetch_add(&next_index, 1)) < accounts;) {
        long n = order[i];
        int length = snprintf(request, sizeof request,
                              "GET /v1/accounts/bench-%ld/issues?publication=monthly HTTP/1.1\r\nHost: %s\r\n"
                              "Authorization: Bearer surge-%s-%ld\r\n\r\n", n, host, seed, n);
        int list = exchange(&fd, worker->port, request, length, buffer, &worker->lists);
        atomic_fetch_add(list == 200 ? &list_ok : &list_other, 1);
        length = snprintf(request, sizeof request,
                          "POST /v1/accounts/bench-%ld/publications/monthly/issues/%s/token HTTP/1.1\r\nHost: %s\r\n"
                          "Authorization: Bearer surge-%s-%ld\r\nContent-Length: 0\r\n\r\n", n, issue, host, seed, n);
        int token = exchange(&fd, worker->port, request, length, buffer, &worker->tokens);
        // E-rules: a reader without an entitlement to the issue is refused 403 not_entitled.
        atomic_fetch_add(token == 200 ? &token_ok : token == 403 ? &token_refused : &token_other, 1);
        atomic_fetch_add(list == 200 && (token == 200 || token == 403) ? &served : &unserved, 1);
    }
    if (fd >= 0) close(fd);
    free(buffer);
    return NULL;
}

static void *devices(void *argument) {
    Worker *worker = argument;
    char *buffer = malloc(BUFFER_BYTES), request[1024], body[256], line[128];
    int fd = -1;
    for (long i; (i = atomic_fetch_add(&next_index, 1)) < accounts;) {
        long n = order[i];
        char token[65];
        snprintf(token, sizeof token, "%064lx", 0xd0000000000L + n);  // apart from the loaded devices
        int body_length = snprintf(body, sizeof body, "{\"platform\":\"ios\",\"apnsToken\":\"%s\",\"environment\":\"production\"}", token);
        int length = snprintf(request, sizeof request,
                              "POST /v1/accounts/bench-%ld/devices HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer surge-%s-%ld\r\n"
                              "Content-Type: application/json\r\nContent-Length: %d\r\n\r\n%s",
                              n, host, seed, n, body_length, body);
        int status = exchange(&fd, worker->port, request, length, buffer, &worker->lists);
        if (status >= 200 && status < 300) {
            int line_length = snprintf(line, sizeof line, "bench-%ld %s\n", n, token);
            if (write(ack_fd, line, line_length) != line_length) { perror("ack file"); exit(1); }
            atomic_fetch_add(&device_ok, 1);
            atomic_fetch_add(&served, 1);
        } else {
            atomic_fetch_add(&device_other, 1);
            atomic_fetch_add(&unserved, 1);
        }
    }
    if (fd >= 0) close(fd);
    free(buffer);
    return NULL;
}

static int by_value(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static void print_percentiles(const char *name, Worker *workers, int count) {
    long total = 0;
    for (int i = 0; i < count; i++) total += (!strcmp(name, "token") ? workers[i].tokens : workers[i].lists).count;
    if (total == 0) { printf("%s_p50_ms=0\n%s_p99_ms=0\n", name, name); return; }
    uint32_t *all = malloc(total * sizeof *all);
    long at = 0;
    for (int i = 0; i < count; i++) {
        Latencies *l = !strcmp(name, "token") ? &workers[i].tokens : &workers[i].lists;
        memcpy(all + at, l->values, l->count * sizeof *all);
        at += l->count;
    }
    qsort(all, total, sizeof *all, by_value);
    printf("%s_p50_ms=%.2f\n%s_p99_ms=%.2f\n%s_max_ms=%.2f\n", name, all[total / 2] / 1e3, name,
           all[(long)(total * 0.99)] / 1e3, name, all[total - 1] / 1e3);
    free(all);
}

static void *progress(void *path) {  // the number served so far, every 100 ms, for the script
    for (;;) {
        FILE *file = fopen(path, "w");
        if (file) { fprintf(file, "%ld\n", (long)served); fclose(file); }
        usleep(100000);
    }
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 10 || (strcmp(argv[1], "surge") && strcmp(argv[1], "devices"))) {
        fprintf(stderr, "usage: surge-reader surge|devices HOST PORTS ACCOUNTS SEED ISSUE|ACK_FILE CONNECTIONS DEADLINE PROGRESS_FILE\n");
        return 2;
    }
    mode = argv[1]; host = argv[2]; accounts = atol(argv[4]); seed = argv[5];
    for (char *port = strtok(argv[3], ","); port && port_count < MAX_PORTS; port = strtok(NULL, ",")) ports[port_count++] = atoi(port);
    int is_surge = !strcmp(mode, "surge");
    if (is_surge) issue = argv[6];
    else if ((ack_fd = open(argv[6], O_WRONLY | O_CREAT | O_APPEND, 0644)) < 0) { perror(argv[6]); return 1; }
    int connections = atoi(argv[7]);
    // A random order (Fisher–Yates), seeded by the time: no two runs read in the same order.
    order = malloc(accounts * sizeof *order);
    for (long i = 0; i < accounts; i++) order[i] = i;
    srand48(time(NULL) ^ getpid());
    for (long i = accounts - 1; i > 0; i--) {
        long j = lrand48() % (i + 1), t = order[i];
        order[i] = order[j]; order[j] = t;
    }
    started = now_seconds();
    deadline = started + atof(argv[8]);
    pthread_t reporter;
    pthread_create(&reporter, NULL, progress, argv[9]);
    Worker *workers = calloc(connections, sizeof *workers);
    pthread_t *threads = malloc(connections * sizeof *threads);
    for (int i = 0; i < connections; i++) {
        workers[i].port = ports[i % port_count];
        pthread_create(&threads[i], NULL, is_surge ? surge : devices, &workers[i]);
    }
    for (int i = 0; i < connections; i++) pthread_join(threads[i], NULL);
    double seconds = now_seconds() - started;
    printf("seconds=%.2f\nserved=%ld\nunserved=%ld\n", seconds, (long)served, (long)unserved);
    if (is_surge) {
        printf("lists_per_second=%.0f\nrequests_per_second=%.0f\n", list_ok / seconds, (list_ok + token_ok + token_refused) / seconds);
        printf("list_200=%ld\nlist_other=%ld\ntoken_200=%ld\ntoken_403=%ld\ntoken_other=%ld\n", (long)list_ok, (long)list_other,
               (long)token_ok, (long)token_refused, (long)token_other);
        print_percentiles("list", workers, connections);
        print_percentiles("token", workers, connections);
    } else {
        printf("devices_per_second=%.0f\ndevice_2xx=%ld\ndevice_other=%ld\n", device_ok / seconds, (long)device_ok, (long)device_other);
        print_percentiles("device", workers, connections);
    }
    printf("retries_503=%ld\nretry_after_missing=%ld\nretries_cut=%ld\n", (long)retries_503, (long)retry_after_missing, (long)retries_cut);
    FILE *file = fopen(argv[9], "w");
    if (file) { fprintf(file, "%ld\n", (long)served); fclose(file); }
    return 0;
}
