/*
 * loop.h - the event loop: file descriptors, timers, before-sleep hooks.
 *
 * One loop per process (per node). It waits on epoll for file descriptors
 * and on a min-heap of timers, then, before it sleeps again, runs the flush
 * hooks: that is where links send the frames queued during the wakeup in one
 * batch (sendmmsg).
 *
 * On a simulated clock (clock->simulated) the loop never sleeps: when
 * nothing is ready it jumps the clock to the next timer, so a network of
 * in-memory nodes runs faster than real time and deterministically.
 *
 * Callbacks may add and remove descriptors and timers, their own included.
 */
#ifndef IPXLAB_LOOP_H
#define IPXLAB_LOOP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ipxlab/clock.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ipx_loop;

#define IPX_EV_READ 1u
#define IPX_EV_WRITE 2u

/* Default cap on packets one descriptor callback handles per wakeup. */
#define IPX_LOOP_BATCH 64

typedef void (*ipx_fd_cb)(struct ipx_loop *loop, int fd, unsigned events,
			  void *ctx);

struct ipx_timer;
typedef void (*ipx_timer_cb)(struct ipx_loop *loop, struct ipx_timer *timer,
			     void *ctx);

/* A timer lives in its owner's struct; the loop only links to it. */
struct ipx_timer {
	ipx_time deadline;
	ipx_time period;	/* 0: one-shot */
	ipx_timer_cb cb;
	void *ctx;
	size_t slot;		/* index in the heap, SIZE_MAX when stopped */
};

typedef void (*ipx_hook_cb)(struct ipx_loop *loop, void *ctx);

/* A before-sleep hook lives in its owner's struct. */
struct ipx_hook {
	ipx_hook_cb cb;
	void *ctx;
	struct ipx_hook *next;
};

struct ipx_loop *ipx_loop_new(struct ipx_clock *clock);
void ipx_loop_free(struct ipx_loop *loop);

struct ipx_clock *ipx_loop_clock(struct ipx_loop *loop);
ipx_time ipx_loop_now(struct ipx_loop *loop);
/* Cap on packets per descriptor callback per wakeup (links honour it). */
unsigned ipx_loop_batch(const struct ipx_loop *loop);
void ipx_loop_set_batch(struct ipx_loop *loop, unsigned batch);

int ipx_loop_add_fd(struct ipx_loop *loop, int fd, unsigned events,
		    ipx_fd_cb cb, void *ctx);
int ipx_loop_mod_fd(struct ipx_loop *loop, int fd, unsigned events);
void ipx_loop_del_fd(struct ipx_loop *loop, int fd);

void ipx_timer_init(struct ipx_timer *timer, ipx_timer_cb cb, void *ctx);
/* (Re)start: first expiry after 'delay', then every 'period' if nonzero. */
int ipx_timer_start(struct ipx_loop *loop, struct ipx_timer *timer,
		    ipx_time delay, ipx_time period);
void ipx_timer_stop(struct ipx_loop *loop, struct ipx_timer *timer);
static inline bool ipx_timer_active(const struct ipx_timer *timer)
{
	return timer->slot != SIZE_MAX;
}

void ipx_loop_add_hook(struct ipx_loop *loop, struct ipx_hook *hook,
		       ipx_hook_cb cb, void *ctx);
void ipx_loop_remove_hook(struct ipx_loop *loop, struct ipx_hook *hook);

/*
 * Deliver these signals (via signalfd) to cb on the loop instead of their
 * default action. cb runs as an ordinary callback, not in a handler.
 */
typedef void (*ipx_signal_cb)(struct ipx_loop *loop, int signo, void *ctx);
int ipx_loop_watch_signals(struct ipx_loop *loop, const int *signals,
			   size_t count, ipx_signal_cb cb, void *ctx);
/*
 * Hold these signals from now on: blocked, so one that comes is kept
 * pending, not acted on, until a loop watches it (and then delivered at
 * once). For a set-up before its loop exists, so that a Ctrl-C during it
 * stops the run the way one during the run does.
 */
int ipx_loop_hold_signals(const int *signals, size_t count);

/*
 * One wakeup: wait at most max_wait (real clock) for work, run ready
 * descriptors and due timers, then the hooks. Returns 1 if anything ran,
 * 0 if it only waited, IPX_EAGAIN on a simulated clock with nothing left
 * to do, or a negative error.
 */
int ipx_loop_run_once(struct ipx_loop *loop, ipx_time max_wait);
/* Run until ipx_loop_stop(). Returns 0, or a negative error. */
int ipx_loop_run(struct ipx_loop *loop);
/* Run until done(ctx) is true (checked after every wakeup) or 'timeout'
 * passes. Returns 0 when done, IPX_ETIMEOUT, or a negative error. */
int ipx_loop_run_until(struct ipx_loop *loop, bool (*done)(void *ctx),
		       void *ctx, ipx_time timeout);
/*
 * Run fn(ctx) as a task, on a stack of its own, until it first waits or
 * ends. Inside a task, ipx_loop_run_until (and run_for) does not run the
 * loop: the task gives the thread back and the loop resumes it, after a
 * turn, once done(ctx) is true or its timeout has passed (same returns).
 * Synchronous clients sharing one loop thus wait side by side, not one
 * inside another's wait (the benchmarks' workstations in one process, in
 * simulated time). A task spawned from a task just runs inline. Tasks
 * still waiting when the loop is freed are abandoned. IPX_OK, or
 * IPX_ENOMEM.
 */
int ipx_loop_spawn(struct ipx_loop *loop, void (*fn)(void *ctx), void *ctx);
/* Has a task been spawned that has not ended (to let them end first)? */
bool ipx_loop_tasks_busy(const struct ipx_loop *loop);
/* Run for 'duration' of loop time. */
int ipx_loop_run_for(struct ipx_loop *loop, ipx_time duration);
/* Ask the run under way to return (ipx_loop_run_until: IPX_ECLOSED, even
 * when done() became true in the same turn). A stop is never lost: one
 * that no run has returned for yet (asked for from ipx_loop_run_once's
 * callbacks, or between runs) ends the next run at once. Once a run has
 * returned for it, or ipx_loop_stopped() has reported it, the next
 * top-level run starts afresh; a run nested in a callback keeps it and
 * returns at once, and so does the run around it. */
void ipx_loop_stop(struct ipx_loop *loop);
bool ipx_loop_stopped(struct ipx_loop *loop);

#ifdef __cplusplus
}
#endif

#endif
