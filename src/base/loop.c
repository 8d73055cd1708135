/*
 * loop.c - epoll event loop with a timer min-heap and before-sleep hooks
 * (see loop.h for the contract).
 */
#include "ipxlab/loop.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

#include "ipxlab/err.h"

#include "loop_int.h"

/* One registered descriptor. Freed lazily so a callback may delete any. */
struct watch {
	int fd;
	unsigned events;
	ipx_fd_cb cb;
	void *ctx;
	bool dead;
	struct watch *next;	/* all watches, live and dead */
};

struct ipx_loop {
	struct ipx_clock *clock;
	struct task_set *tasks;	/* ipx_loop_spawn's, made on first use */
	int epfd;
	unsigned batch;
	bool stopped;		/* a stop asked for (ipx_loop_stop) */
	bool stop_seen;		/* a run returned for it, or it was read */
	unsigned depth;		/* runs under way (a callback may nest one) */
	unsigned nwatch;	/* live watches */
	struct watch *watches;
	bool dispatching;
	struct ipx_timer **heap;
	size_t nheap, capheap;
	struct ipx_hook *hooks;
	/* signals */
	int sigfd;
	ipx_signal_cb sig_cb;
	void *sig_ctx;
};

struct ipx_loop *ipx_loop_new(struct ipx_clock *clock)
{
	struct ipx_loop *loop = calloc(1, sizeof(*loop));

	if (!loop)
		return NULL;
	loop->clock = clock ? clock : ipx_clock_system();
	loop->batch = IPX_LOOP_BATCH;
	loop->sigfd = -1;
	loop->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (loop->epfd < 0) {
		free(loop);
		return NULL;
	}
	return loop;
}

static void reap_watches(struct ipx_loop *loop)
{
	struct watch **pp = &loop->watches;

	while (*pp) {
		struct watch *w = *pp;

		if (w->dead) {
			*pp = w->next;
			free(w);
		} else {
			pp = &w->next;
		}
	}
}

void ipx_loop_free(struct ipx_loop *loop)
{
	if (!loop)
		return;
	task_set_free(loop->tasks);
	for (struct watch *w = loop->watches; w; w = w->next)
		w->dead = true;
	reap_watches(loop);
	if (loop->sigfd >= 0)
		close(loop->sigfd);
	close(loop->epfd);
	for (size_t i = 0; i < loop->nheap; i++)
		loop->heap[i]->slot = SIZE_MAX;
	free(loop->heap);
	free(loop);
}

struct ipx_clock *ipx_loop_clock(struct ipx_loop *loop)
{
	return loop->clock;
}

ipx_time ipx_loop_now(struct ipx_loop *loop)
{
	return ipx_clock_now(loop->clock);
}

unsigned ipx_loop_batch(const struct ipx_loop *loop)
{
	return loop->batch;
}

void ipx_loop_set_batch(struct ipx_loop *loop, unsigned batch)
{
	loop->batch = batch ? batch : 1;
}

static uint32_t to_epoll(unsigned events)
{
	return ((events & IPX_EV_READ) ? EPOLLIN : 0) |
	       ((events & IPX_EV_WRITE) ? EPOLLOUT : 0);
}

static struct watch *find_watch(struct ipx_loop *loop, int fd)
{
	for (struct watch *w = loop->watches; w; w = w->next)
		if (w->fd == fd && !w->dead)
			return w;
	return NULL;
}

int ipx_loop_add_fd(struct ipx_loop *loop, int fd, unsigned events,
		    ipx_fd_cb cb, void *ctx)
{
	struct epoll_event ev = { .events = to_epoll(events) };
	struct watch *w;

	if (fd < 0 || !cb || find_watch(loop, fd))
		return IPX_EINVAL;
	w = calloc(1, sizeof(*w));
	if (!w)
		return IPX_ENOMEM;
	*w = (struct watch){ .fd = fd, .events = events, .cb = cb, .ctx = ctx };
	ev.data.ptr = w;
	if (epoll_ctl(loop->epfd, EPOLL_CTL_ADD, fd, &ev) < 0) {
		free(w);
		return IPX_EIO;
	}
	w->next = loop->watches;
	loop->watches = w;
	loop->nwatch++;
	return IPX_OK;
}

int ipx_loop_mod_fd(struct ipx_loop *loop, int fd, unsigned events)
{
	struct watch *w = find_watch(loop, fd);
	struct epoll_event ev = { .events = to_epoll(events) };

	if (!w)
		return IPX_ENOTFOUND;
	ev.data.ptr = w;
	if (epoll_ctl(loop->epfd, EPOLL_CTL_MOD, fd, &ev) < 0)
		return IPX_EIO;
	w->events = events;
	return IPX_OK;
}

void ipx_loop_del_fd(struct ipx_loop *loop, int fd)
{
	struct watch *w = find_watch(loop, fd);

	if (!w)
		return;
	epoll_ctl(loop->epfd, EPOLL_CTL_DEL, fd, NULL);
	w->dead = true;
	loop->nwatch--;
	if (!loop->dispatching)
		reap_watches(loop);
}

/* ---- timers: a binary min-heap ordered by deadline ---- */

static void heap_set(struct ipx_loop *loop, size_t i, struct ipx_timer *t)
{
	loop->heap[i] = t;
	t->slot = i;
}

static void heap_up(struct ipx_loop *loop, size_t i)
{
	struct ipx_timer *t = loop->heap[i];

	while (i > 0) {
		size_t parent = (i - 1) / 2;

		if (!ipx_time_before(t->deadline, loop->heap[parent]->deadline))
			break;
		heap_set(loop, i, loop->heap[parent]);
		i = parent;
	}
	heap_set(loop, i, t);
}

static void heap_down(struct ipx_loop *loop, size_t i)
{
	struct ipx_timer *t = loop->heap[i];

	for (;;) {
		size_t child = 2 * i + 1;

		if (child >= loop->nheap)
			break;
		if (child + 1 < loop->nheap &&
		    ipx_time_before(loop->heap[child + 1]->deadline,
				    loop->heap[child]->deadline))
			child++;
		if (!ipx_time_before(loop->heap[child]->deadline, t->deadline))
			break;
		heap_set(loop, i, loop->heap[child]);
		i = child;
	}
	heap_set(loop, i, t);
}

void ipx_timer_init(struct ipx_timer *timer, ipx_timer_cb cb, void *ctx)
{
	memset(timer, 0, sizeof(*timer));
	timer->cb = cb;
	timer->ctx = ctx;
	timer->slot = SIZE_MAX;
}

void ipx_timer_stop(struct ipx_loop *loop, struct ipx_timer *timer)
{
	size_t i = timer->slot;

	if (i == SIZE_MAX || i >= loop->nheap || loop->heap[i] != timer)
		return;
	timer->slot = SIZE_MAX;
	loop->nheap--;
	if (i == loop->nheap)
		return;
	heap_set(loop, i, loop->heap[loop->nheap]);
	heap_down(loop, i);
	heap_up(loop, loop->heap[i]->slot);
}

int ipx_timer_start(struct ipx_loop *loop, struct ipx_timer *timer,
		    ipx_time delay, ipx_time period)
{
	ipx_timer_stop(loop, timer);
	if (loop->nheap == loop->capheap) {
		size_t cap = loop->capheap ? loop->capheap * 2 : 16;
		struct ipx_timer **heap = realloc(loop->heap, cap * sizeof(*heap));

		if (!heap)
			return IPX_ENOMEM;
		loop->heap = heap;
		loop->capheap = cap;
	}
	timer->deadline = ipx_loop_now(loop) + delay;
	timer->period = period;
	loop->heap[loop->nheap] = timer;
	timer->slot = loop->nheap++;
	heap_up(loop, timer->slot);
	return IPX_OK;
}

/* Run every timer due at 'now'; returns how many ran. */
static int run_timers(struct ipx_loop *loop)
{
	ipx_time now = ipx_loop_now(loop);
	int ran = 0;

	while (loop->nheap > 0 && !ipx_time_before(now, loop->heap[0]->deadline)) {
		struct ipx_timer *t = loop->heap[0];

		if (t->period) {
			t->deadline += t->period;
			if (!ipx_time_before(now, t->deadline))
				t->deadline = now + t->period;
			heap_down(loop, 0);
		} else {
			ipx_timer_stop(loop, t);
		}
		t->cb(loop, t, t->ctx);
		ran++;
		if (loop->stopped)
			break;
	}
	return ran;
}

/* ---- hooks ---- */

void ipx_loop_add_hook(struct ipx_loop *loop, struct ipx_hook *hook,
		       ipx_hook_cb cb, void *ctx)
{
	hook->cb = cb;
	hook->ctx = ctx;
	hook->next = loop->hooks;
	loop->hooks = hook;
}

void ipx_loop_remove_hook(struct ipx_loop *loop, struct ipx_hook *hook)
{
	for (struct ipx_hook **pp = &loop->hooks; *pp; pp = &(*pp)->next) {
		if (*pp == hook) {
			*pp = hook->next;
			return;
		}
	}
}

static void run_hooks(struct ipx_loop *loop)
{
	struct ipx_hook *h = loop->hooks;

	while (h) {
		struct ipx_hook *next = h->next;

		h->cb(loop, h->ctx);
		h = next;
	}
}

/* ---- signals ---- */

static void on_signalfd(struct ipx_loop *loop, int fd, unsigned events,
			void *ctx)
{
	struct signalfd_siginfo si;

	(void)events;
	(void)ctx;
	while (read(fd, &si, sizeof(si)) == (ssize_t)sizeof(si))
		if (loop->sig_cb)
			loop->sig_cb(loop, (int)si.ssi_signo, loop->sig_ctx);
}

int ipx_loop_hold_signals(const int *signals, size_t count)
{
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < count; i++)
		sigaddset(&set, signals[i]);
	return sigprocmask(SIG_BLOCK, &set, NULL) < 0 ? IPX_EIO : IPX_OK;
}

int ipx_loop_watch_signals(struct ipx_loop *loop, const int *signals,
			   size_t count, ipx_signal_cb cb, void *ctx)
{
	sigset_t set;
	int fd, err;

	sigemptyset(&set);
	for (size_t i = 0; i < count; i++)
		sigaddset(&set, signals[i]);
	if (sigprocmask(SIG_BLOCK, &set, NULL) < 0)
		return IPX_EIO;
	fd = signalfd(loop->sigfd, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	if (fd < 0)
		return IPX_EIO;
	loop->sig_cb = cb;
	loop->sig_ctx = ctx;
	if (loop->sigfd < 0) {
		loop->sigfd = fd;
		err = ipx_loop_add_fd(loop, fd, IPX_EV_READ, on_signalfd, NULL);
		if (err)
			return err;
	}
	return IPX_OK;
}

/* ---- running ---- */

static int run_once(struct ipx_loop *loop, ipx_time max_wait, bool may_jump);

int ipx_loop_run_once(struct ipx_loop *loop, ipx_time max_wait)
{
	return run_once(loop, max_wait, true);
}

/* epoll_pwait2 (Linux 5.11) waits to the nanosecond; on an older kernel
 * epoll_wait, the wait rounded up to a millisecond so as not to spin
 * just before a deadline. */
static int wait_events(int epfd, struct epoll_event *evs, int max,
		       const struct timespec *ts)
{
	static bool no_pwait2;
	long ms;

	if (!no_pwait2) {
		int n = epoll_pwait2(epfd, evs, max, ts, NULL);

		if (n >= 0 || errno != ENOSYS)
			return n;
		no_pwait2 = true;
	}
	ms = (long)ts->tv_sec * 1000 + (ts->tv_nsec + 999999) / 1000000;
	return epoll_wait(epfd, evs, max, (int)ms);
}

static int run_once(struct ipx_loop *loop, ipx_time max_wait, bool may_jump)
{
	struct epoll_event evs[64];
	struct timespec ts = { 0, 0 };	/* how long to wait */
	int n, ran;
	ipx_time now;

	ran = run_timers(loop);
	run_hooks(loop);
	ran |= task_resume_ready(loop->tasks);
	if (loop->stopped)
		return 1;

	now = ipx_loop_now(loop);
	if (!loop->clock->simulated && !ran) {
		ipx_time wait = max_wait;

		if (loop->nheap > 0) {
			ipx_time due = loop->heap[0]->deadline;
			ipx_time until = ipx_time_before(now, due) ? due - now : 0;

			if (until < wait)
				wait = until;
		}
		if (wait > 60 * IPX_SEC)
			wait = 60 * IPX_SEC;
		/* To the microsecond: a millisecond's rounding would add up
		 * to 1 ms to every short timer (a link profile's wire time, a
		 * round trip of a hundred microseconds). */
		ts.tv_sec = (time_t)(wait / IPX_SEC);
		ts.tv_nsec = (long)(wait % IPX_SEC) * 1000L;
	}

	if (loop->nwatch == 0 && (ts.tv_sec || ts.tv_nsec)) {
		/* Nothing to watch: just sleep until the next timer. */
		nanosleep(&ts, NULL);
		n = 0;
	} else if (loop->nwatch == 0) {
		n = 0;
	} else {
		n = wait_events(loop->epfd, evs, 64, &ts);
		if (n < 0) {
			if (errno == EINTR)
				return 0;
			return IPX_EIO;
		}
	}

	loop->dispatching = true;
	for (int i = 0; i < n; i++) {
		struct watch *w = evs[i].data.ptr;
		unsigned events = 0;

		if (w->dead)
			continue;
		if (evs[i].events & (EPOLLIN | EPOLLERR | EPOLLHUP))
			events |= IPX_EV_READ;
		if (evs[i].events & EPOLLOUT)
			events |= IPX_EV_WRITE;
		w->cb(loop, w->fd, events, w->ctx);
	}
	loop->dispatching = false;
	reap_watches(loop);
	if (n > 0) {
		run_hooks(loop);
		task_resume_ready(loop->tasks);
		return 1;
	}
	if (ran)
		return 1;

	if (loop->clock->simulated) {
		if (loop->nheap == 0 || !may_jump)
			return IPX_EAGAIN;
		/* Nothing ready now: jump to the next timer. */
		ipx_clock_set(loop->clock, loop->heap[0]->deadline);
		return 1;
	}
	return 0;
}

/* A top-level run starts afresh from a stop that has been delivered (a
 * run returned for it, or ipx_loop_stopped() said so); a stop nobody has
 * seen yet is kept, so that it ends this run at once: a Ctrl-C read in
 * the same turn as the reply a call waited for must not be lost when the
 * next call runs the loop. A run nested in a callback keeps any stop, so
 * that the stop reaches the run outside it too. */
static void run_enter(struct ipx_loop *loop)
{
	if (loop->depth++ == 0 && loop->stop_seen) {
		loop->stopped = false;
		loop->stop_seen = false;
	}
}

/* The run returns for the stop. */
static int run_stopped(struct ipx_loop *loop, int rc)
{
	loop->stop_seen = true;
	return rc;
}

static int run_leave(struct ipx_loop *loop, int rc)
{
	loop->depth--;
	return rc;
}

static int run_plain(struct ipx_loop *loop)
{
	while (!loop->stopped) {
		int rc = ipx_loop_run_once(loop, 60 * IPX_SEC);

		if (rc == IPX_EAGAIN)
			return IPX_OK;
		if (rc < 0)
			return rc;
	}
	return run_stopped(loop, IPX_OK);
}

int ipx_loop_run(struct ipx_loop *loop)
{
	run_enter(loop);
	return run_leave(loop, run_plain(loop));
}

static int run_until(struct ipx_loop *loop, bool (*done)(void *ctx),
		     void *ctx, ipx_time timeout)
{
	ipx_time end = ipx_loop_now(loop) + timeout;
	bool last = false;

	for (;;) {
		ipx_time now = ipx_loop_now(loop);
		int rc;

		/* A stop wins over done(): both may come in one turn (a
		 * signal read beside the reply waited for). */
		if (loop->stopped)
			return run_stopped(loop, IPX_ECLOSED);
		if (done && done(ctx))
			break;
		if (!ipx_time_before(now, end)) {
			/* One last turn for what is due exactly at the end. */
			if (last)
				return IPX_ETIMEOUT;
			last = true;
			rc = run_once(loop, 0, false);
			if (rc < 0 && rc != IPX_EAGAIN)
				return rc;
			continue;
		}
		if (loop->clock->simulated && loop->nheap > 0 &&
		    ipx_time_before(end, loop->heap[0]->deadline)) {
			ipx_clock_set(loop->clock, end);
			continue;
		}
		rc = ipx_loop_run_once(loop, end - now);
		if (rc == IPX_EAGAIN) {
			ipx_clock_set(loop->clock, end);
			continue;
		}
		if (rc < 0)
			return rc;
	}
	return IPX_OK;
}

int ipx_loop_run_until(struct ipx_loop *loop, bool (*done)(void *ctx),
		       void *ctx, ipx_time timeout)
{
	/* In a task: wait on the task's own stack (task.c); the run the
	 * task was started from goes on meanwhile. */
	if (task_current(loop->tasks))
		return task_wait(loop->tasks, done, ctx, timeout);
	run_enter(loop);
	return run_leave(loop, run_until(loop, done, ctx, timeout));
}

int ipx_loop_spawn(struct ipx_loop *loop, void (*fn)(void *ctx), void *ctx)
{
	if (!loop->tasks)
		loop->tasks = task_set_new(loop);
	return task_spawn(loop->tasks, fn, ctx);
}

bool ipx_loop_tasks_busy(const struct ipx_loop *loop)
{
	return task_busy(loop->tasks);
}

static bool never(void *ctx)
{
	(void)ctx;
	return false;
}

int ipx_loop_run_for(struct ipx_loop *loop, ipx_time duration)
{
	int rc = ipx_loop_run_until(loop, never, NULL, duration);

	return rc == IPX_ETIMEOUT ? IPX_OK : rc;
}

void ipx_loop_stop(struct ipx_loop *loop)
{
	loop->stopped = true;
	loop->stop_seen = false;
}

bool ipx_loop_stopped(struct ipx_loop *loop)
{
	if (loop->stopped)
		loop->stop_seen = true;	/* the caller has it now */
	return loop->stopped;
}
