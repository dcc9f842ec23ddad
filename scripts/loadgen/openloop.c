/*
 * openloop: an open-loop HTTP/1.1 load generator for scripts/bench-review (wrk2's idea, which
 * is not packaged for Debian). Request i is due at start + i / rate, whatever happened to the
 * requests before it; its latency is counted from that scheduled time to the end of its
 * response, so a server stall shows up in every request it delayed (wrk, like any closed-loop
 * client, stops sending while it waits and so hides the stall: coordinated omission).
 *
 * One thread, epoll, --connections keep-alive connections opened before the start, one request
 * in flight on each (no pipelining). A due request goes out on an idle connection at once; when
 * every connection is busy it waits in order for the next free one, and that wait is the
 * server's (counted in its latency and in `queued`). A timerfd wakes the loop at each send time.
 * The generator's own lateness is reported apart: how late a request went out although a
 * connection was idle (`gen_lag`), and the CPU the generator used (`cpu_share`, of one core).
 *
 * Requests: with --targets FILE (lines "TOKEN ITEM ..."), what bench-review's Lua script sends
 * to wrk: POST /v1/me/reviews for a random line's learner token and item, rating 1-4, JSON body,
 * Authorization: Bearer; all formatted before the start. Without it, GET --path (default
 * /healthz), to measure the generator itself against a trivial answer.
 *
 * After the last send time the loop keeps sending what is still due and waits for answers up to
 * --grace seconds (default 5); a request unanswered by then counts as an error, with the time
 * until then as its latency (a lower bound), so it is never left out of the percentiles.
 *
 * Output: key=value lines on standard output (times in microseconds), read by bench-review.
 * Build: cc -O2 -o openloop openloop.c   (Linux: epoll, timerfd)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#define INBUF 65536

typedef struct {
    int fd;
    int busy;            /* a request in flight */
    int connecting;      /* a non-blocking connect under way */
    int writing;         /* EPOLLOUT asked for */
    long req;            /* its index in the schedule */
    const char *out;     /* what is left to write of it */
    size_t outlen;
    char in[INBUF];
    size_t inlen;
} Conn;

static int64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void die(const char *what) { perror(what); exit(2); }

/* Settings */
static const char *host = "127.0.0.1";
static int port = 0;
static double rate = 1000, duration = 10, grace = 5;
static int nconn = 64;
static const char *targets = NULL, *path = "/healthz";

/* The preformatted requests one is picked from at random. */
static char **reqs;
static size_t *reqlen;
static long nreqs;

/* Per scheduled request */
static long total;
static int64_t t0;
static int64_t *sent_at, *done_at;   /* 0: not yet */
static int *status;                  /* HTTP status; -1 socket error */
static unsigned char *queued;        /* found every connection busy when due */

static Conn *conns;
static int *idle;                    /* stack of idle connection indexes */
static int nidle;
static int ep, tfd;
static long next_req;                /* next request to send */
static long nreconnects;
static int inflight;                 /* connections with a request on them */

static int64_t sched(long i) { return t0 + (int64_t)((double)i * 1e9 / rate); }

static uint64_t rng_state;
static uint64_t rnd(void) {  /* xorshift64* */
    rng_state ^= rng_state >> 12; rng_state ^= rng_state << 25; rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ULL;
}

static void add_request(char *text) {
    static long cap = 0;
    if (nreqs == cap) {
        cap = cap ? cap * 2 : 1024;
        reqs = realloc(reqs, cap * sizeof *reqs);
        reqlen = realloc(reqlen, cap * sizeof *reqlen);
        if (!reqs || !reqlen) die("realloc");
    }
    reqs[nreqs] = text;
    reqlen[nreqs] = strlen(text);
    nreqs++;
}

static void load_requests(void) {
    char *text;
    if (!targets) {
        if (asprintf(&text, "GET %s HTTP/1.1\r\nHost: %s:%d\r\n\r\n", path, host, port) < 0) die("asprintf");
        add_request(text);
        return;
    }
    FILE *f = fopen(targets, "r");
    if (!f) die(targets);
    char line[4096], token[1024], item[64];
    while (fgets(line, sizeof line, f)) {
        if (sscanf(line, "%1023s %63s", token, item) != 2) continue;
        for (int rating = 1; rating <= 4; rating++) {
            char body[128];
            int n = snprintf(body, sizeof body, "{\"item\":%s,\"rating\":%d}", item, rating);
            if (asprintf(&text, "POST /v1/me/reviews HTTP/1.1\r\nHost: %s:%d\r\nAuthorization: Bearer %s\r\n"
                         "Content-Type: application/json\r\nContent-Length: %d\r\n\r\n%s",
                         host, port, token, n, body) < 0) die("asprintf");
            add_request(text);
        }
    }
    fclose(f);
    if (nreqs == 0) { fprintf(stderr, "openloop: no targets in %s\n", targets); exit(2); }
}

/* Opens connection c. Before the start a blocking connect; afterwards a non-blocking one, so a
 * slow accept never stops the schedule: the connection joins the idle ones once connected. */
static void conn_open(int c, int blocking) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) die("socket");
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };
    if (inet_pton(AF_INET, host, &a.sin_addr) != 1) { fprintf(stderr, "openloop: bad host %s\n", host); exit(2); }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (!blocking) fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    int r = connect(fd, (struct sockaddr *)&a, sizeof a);
    if (r < 0 && (blocking || errno != EINPROGRESS)) die("connect");
    if (blocking) fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    conns[c].fd = fd;
    conns[c].busy = 0;
    conns[c].inlen = 0;
    conns[c].outlen = 0;
    conns[c].connecting = r < 0;
    conns[c].writing = r < 0;
    struct epoll_event ev = { .events = EPOLLIN | (r < 0 ? EPOLLOUT : 0), .data.u32 = (uint32_t)c };
    if (epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) < 0) die("epoll_ctl");
    if (r == 0) idle[nidle++] = c;
}

/* The connection failed or was closed: the request on it (if any) is a socket error; open again. */
static void conn_reset(int c, int64_t now) {
    Conn *k = &conns[c];
    epoll_ctl(ep, EPOLL_CTL_DEL, k->fd, NULL);
    close(k->fd);
    if (k->busy) {
        status[k->req] = -1;
        done_at[k->req] = now;
        inflight--;
    } else if (!k->connecting) {
        /* it was idle: take it off the idle stack */
        for (int i = 0; i < nidle; i++) if (idle[i] == c) { idle[i] = idle[--nidle]; break; }
    }
    nreconnects++;
    conn_open(c, 0);
}

static void want_write(int c, int on) {  /* a system call only when it changes */
    if (conns[c].writing == on) return;
    conns[c].writing = on;
    struct epoll_event ev = { .events = EPOLLIN | (on ? EPOLLOUT : 0), .data.u32 = (uint32_t)c };
    epoll_ctl(ep, EPOLL_CTL_MOD, conns[c].fd, &ev);
}

static void flush(int c, int64_t now) {
    Conn *k = &conns[c];
    if (k->connecting) {  /* connected, or failed */
        int err = 0;
        socklen_t len = sizeof err;
        getsockopt(k->fd, SOL_SOCKET, SO_ERROR, &err, &len);
        k->connecting = 0;
        if (err) { conn_reset(c, now); return; }
        want_write(c, 0);
        idle[nidle++] = c;
        return;
    }
    while (k->outlen > 0) {
        ssize_t n = write(k->fd, k->out, k->outlen);
        if (n < 0) {
            if (errno == EAGAIN) { want_write(c, 1); return; }
            conn_reset(c, now);
            return;
        }
        k->out += n;
        k->outlen -= (size_t)n;
    }
    want_write(c, 0);
}

static void send_on(int c, long i, int64_t now) {
    Conn *k = &conns[c];
    long r = (long)(rnd() % (uint64_t)nreqs);
    k->busy = 1;
    inflight++;
    k->req = i;
    k->out = reqs[r];
    k->outlen = reqlen[r];
    k->inlen = 0;
    sent_at[i] = now;
    flush(c, now);
}

/* Length of a complete response at the start of buf, 0 if incomplete, -1 if malformed.
 * Sets *code and *closing (Connection: close). */
static long response_length(const char *buf, size_t len, int *code, int *closing) {
    const char *end = memmem(buf, len, "\r\n\r\n", 4);
    if (!end) return len >= INBUF ? -1 : 0;
    size_t head = (size_t)(end - buf) + 4;
    if (len < 12 || strncmp(buf, "HTTP/1.", 7) != 0) return -1;
    *code = atoi(buf + 9);
    *closing = buf[7] == '0';  /* HTTP/1.0: the server closes after the response */
    long clen = -1;
    int chunked = 0;
    const char *p = memchr(buf, '\n', head) + 1;
    while (p < end) {  /* one header line a turn, p..eol (buf is not NUL-terminated) */
        const char *eol = memchr(p, '\r', (size_t)(end - p) + 1);
        size_t n = (size_t)(eol - p);
        if (n > 15 && strncasecmp(p, "content-length:", 15) == 0) clen = atol(p + 15);
        else if (n > 18 && strncasecmp(p, "transfer-encoding:", 18) == 0 && memmem(p, n, "chunked", 7)) chunked = 1;
        else if (n > 11 && strncasecmp(p, "connection:", 11) == 0 && memmem(p, n, "close", 5)) *closing = 1;
        p = eol + 2;
    }
    if (*code == 204 || *code == 304 || (*code >= 100 && *code < 200)) return (long)head;
    if (chunked) {
        size_t pos = head;
        for (;;) {
            const char *eol = memmem(buf + pos, len - pos, "\r\n", 2);
            if (!eol) return 0;
            long size = strtol(buf + pos, NULL, 16);
            pos = (size_t)(eol - buf) + 2;
            if (size == 0) {  /* no trailers expected: the final CRLF */
                if (len < pos + 2) return 0;
                return (long)(pos + 2);
            }
            if (len < pos + (size_t)size + 2) return 0;
            pos += (size_t)size + 2;
        }
    }
    if (clen < 0) return -1;  /* the server always sends a length; anything else is not handled */
    return len >= head + (size_t)clen ? (long)(head + (size_t)clen) : 0;
}

static void on_readable(int c, int64_t now) {
    Conn *k = &conns[c];
    int eof = 0, code = 0, closing = 0;
    long whole = 0;
    for (;;) {  /* until EAGAIN, or a whole response (one read, mostly) */
        ssize_t n = read(k->fd, k->in + k->inlen, INBUF - k->inlen);
        if (n == 0 || (n < 0 && errno != EAGAIN)) { eof = 1; break; }
        if (n < 0) break;
        k->inlen += (size_t)n;
        if (k->inlen == INBUF) break;
        if (k->busy && (whole = response_length(k->in, k->inlen, &code, &closing)) != 0) break;
    }
    if (!k->busy) {  /* an idle connection closed by the server, or bytes nobody asked for */
        if (eof || k->inlen) conn_reset(c, now);
        return;
    }
    if (whole == 0 && k->inlen) whole = response_length(k->in, k->inlen, &code, &closing);
    if (whole == 0 && !eof) return;             /* more to come */
    if (whole <= 0) { conn_reset(c, now); return; }  /* cut short or malformed: a socket error */
    done_at[k->req] = now;
    status[k->req] = code;
    k->busy = 0;
    inflight--;
    k->inlen = 0;
    if (closing || eof) {  /* answered, then closed: open it again (not an error) */
        nreconnects++;
        epoll_ctl(ep, EPOLL_CTL_DEL, k->fd, NULL);
        close(k->fd);
        conn_open(c, 0);
    } else idle[nidle++] = c;
}

static void arm_timer(int64_t at) {  /* 0 disarms; a system call only for a new deadline */
    static int64_t armed = -1;
    if (at == armed) return;
    armed = at;
    struct itimerspec ts = {0};
    if (at > 0) { ts.it_value.tv_sec = at / 1000000000LL; ts.it_value.tv_nsec = at % 1000000000LL; }
    if (timerfd_settime(tfd, at > 0 ? TFD_TIMER_ABSTIME : 0, &ts, NULL) < 0) die("timerfd_settime");
}

static int cmp64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}
static double pct(int64_t *sorted, long n, double p) {  /* nearest rank, in microseconds */
    if (n == 0) return 0;
    long i = (long)(p / 100.0 * (double)n + 0.999999) - 1;
    if (i < 0) i = 0;
    if (i >= n) i = n - 1;
    return (double)sorted[i] / 1000.0;
}
static void print_dist(const char *name, int64_t *v, long n) {
    qsort(v, (size_t)n, sizeof *v, cmp64);
    printf("%s_count=%ld\n%s_p50=%.0f\n%s_p90=%.0f\n%s_p99=%.0f\n%s_p999=%.0f\n%s_max=%.0f\n",
           name, n, name, pct(v, n, 50), name, pct(v, n, 90), name, pct(v, n, 99), name, pct(v, n, 99.9),
           name, n ? (double)v[n - 1] / 1000.0 : 0);
}

static void usage(void) {
    fprintf(stderr, "usage: openloop --port P --rate R [--duration S] [--connections C] [--host 127.0.0.1]\n"
                    "                [--targets FILE | --path /healthz] [--grace S]\n");
    exit(2);
}

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) usage();
        if (!strcmp(a, "--host")) host = v;
        else if (!strcmp(a, "--port")) port = atoi(v);
        else if (!strcmp(a, "--rate")) rate = atof(v);
        else if (!strcmp(a, "--duration")) duration = atof(v);
        else if (!strcmp(a, "--connections")) nconn = atoi(v);
        else if (!strcmp(a, "--targets")) targets = v;
        else if (!strcmp(a, "--path")) path = v;
        else if (!strcmp(a, "--grace")) grace = atof(v);
        else usage();
        i++;
    }
    if (port <= 0 || rate <= 0 || duration <= 0 || nconn <= 0) usage();
    signal(SIGPIPE, SIG_IGN);
    rng_state = (uint64_t)now_ns() ^ ((uint64_t)getpid() << 32) ^ 0x9E3779B97F4A7C15ULL;
    load_requests();

    total = (long)(rate * duration);
    sent_at = calloc((size_t)total, sizeof *sent_at);
    done_at = calloc((size_t)total, sizeof *done_at);
    status = calloc((size_t)total, sizeof *status);
    queued = calloc((size_t)total, 1);
    conns = calloc((size_t)nconn, sizeof *conns);
    idle = calloc((size_t)nconn, sizeof *idle);
    if (!sent_at || !done_at || !status || !queued || !conns || !idle) die("calloc");

    ep = epoll_create1(0);
    tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK);
    if (ep < 0 || tfd < 0) die("epoll/timerfd");
    struct epoll_event tev = { .events = EPOLLIN, .data.u32 = UINT32_MAX };
    epoll_ctl(ep, EPOLL_CTL_ADD, tfd, &tev);
    for (int c = 0; c < nconn; c++) conn_open(c, 1);

    struct rusage ru0, ru1;
    getrusage(RUSAGE_SELF, &ru0);
    t0 = now_ns() + 1000000;  /* the first send 1 ms from now */
    int64_t stop = t0 + (int64_t)(duration * 1e9) + (int64_t)(grace * 1e9);
    long marked = 0;  /* requests before this one were checked for a wait */
    struct epoll_event evs[256];
    for (;;) {
        int64_t now = now_ns();
        /* Send what is due: on an idle connection at once, else it waits (queued) for one. */
        while (next_req < total && sched(next_req) <= now && nidle > 0) {
            int c = idle[--nidle];
            send_on(c, next_req++, now);
        }
        /* Requests still waiting for a connection are marked queued too (the server's wait). */
        if (marked < next_req) marked = next_req;
        while (marked < total && sched(marked) <= now) queued[marked++] = 1;
        if (next_req < total && nidle > 0) arm_timer(sched(next_req) > now ? sched(next_req) : now + 1);
        else arm_timer(0);
        /* Done when everything was sent and answered, or at the grace deadline. */
        if ((next_req == total && inflight == 0) || now >= stop) break;
        int64_t wait_ms = (stop - now) / 1000000 + 1;
        int n = epoll_wait(ep, evs, 256, (int)wait_ms);
        if (n < 0) { if (errno == EINTR) continue; die("epoll_wait"); }
        now = now_ns();
        for (int e = 0; e < n; e++) {
            uint32_t id = evs[e].data.u32;
            if (id == UINT32_MAX) { uint64_t x; (void)!read(tfd, &x, sizeof x); continue; }
            if (evs[e].events & (EPOLLOUT | EPOLLERR | EPOLLHUP) && (conns[id].connecting || conns[id].outlen)) flush((int)id, now);
            else if (evs[e].events & (EPOLLIN | EPOLLHUP | EPOLLERR)) on_readable((int)id, now);
        }
    }
    int64_t end = now_ns();
    getrusage(RUSAGE_SELF, &ru1);

    /* Tally. Unanswered requests (never sent, or no answer by the deadline) get end - scheduled. */
    int64_t *lat = malloc((size_t)total * sizeof *lat), *svc = malloc((size_t)total * sizeof *svc),
            *lag = malloc((size_t)total * sizeof *lag);
    long nlat = 0, nsvc = 0, nlag = 0, ok = 0, non2xx = 0, sockerr = 0, unanswered = 0, nqueued = 0, late1ms = 0;
    int64_t last_done = t0;
    for (long i = 0; i < total; i++) {
        int64_t s = sched(i);
        if (queued[i]) nqueued++;
        if (sent_at[i] && !queued[i]) {
            lag[nlag++] = sent_at[i] - s;
            if (sent_at[i] - s > 1000000) late1ms++;
        }
        if (done_at[i] && status[i] > 0) {
            lat[nlat++] = done_at[i] - s;
            svc[nsvc++] = done_at[i] - sent_at[i];
            if (done_at[i] > last_done) last_done = done_at[i];
            if (status[i] >= 200 && status[i] < 300) ok++; else non2xx++;
        } else if (done_at[i]) {
            sockerr++;
        } else {
            unanswered++;
            lat[nlat++] = end - s;
        }
    }
    double wall = (double)(end - t0) / 1e9;
    double cpu = (double)(ru1.ru_utime.tv_sec - ru0.ru_utime.tv_sec) + (double)(ru1.ru_utime.tv_usec - ru0.ru_utime.tv_usec) / 1e6
               + (double)(ru1.ru_stime.tv_sec - ru0.ru_stime.tv_sec) + (double)(ru1.ru_stime.tv_usec - ru0.ru_stime.tv_usec) / 1e6;
    double span = (double)(last_done - t0) / 1e9;
    if (span < duration) span = duration;
    printf("offered_rate=%.1f\nduration=%.3f\nconnections=%d\nscheduled=%ld\nsent=%ld\n", rate, duration, nconn, total, next_req);
    printf("ok=%ld\nnon2xx=%ld\nsocket_errors=%ld\nunanswered=%ld\nreconnects=%ld\n", ok, non2xx, sockerr, unanswered, nreconnects);
    printf("achieved_rate=%.1f\n", (double)(ok + non2xx) / span);
    printf("queued=%ld\nlate_over_1ms_with_idle_connection=%ld\n", nqueued, late1ms);
    printf("cpu_seconds=%.3f\nwall_seconds=%.3f\ncpu_share=%.3f\n", cpu, wall, cpu / wall);
    print_dist("latency_us", lat, nlat);   /* corrected: from the scheduled send time */
    print_dist("service_us", svc, nsvc);   /* uncorrected: from the actual send, as wrk counts */
    print_dist("gen_lag_us", lag, nlag);   /* the generator's own lateness with a connection idle */
    return 0;
}
