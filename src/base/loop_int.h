/*
 * loop_int.h - what loop.c and task.c (functions that wait on their own
 * stack, ipx_loop_spawn) share; private to src/base.
 */
#ifndef IPXLAB_LOOP_INT_H
#define IPXLAB_LOOP_INT_H

#include <stdbool.h>

#include "ipxlab/loop.h"

struct task_set;

struct task_set *task_set_new(struct ipx_loop *loop);
void task_set_free(struct task_set *s);
/* Is any task spawned and not finished? */
bool task_busy(const struct task_set *s);
/* Is a task running now (rather than the loop's own thread)? */
bool task_current(const struct task_set *s);
/* Run fn(ctx) as a task until it first waits or ends. */
int task_spawn(struct task_set *s, void (*fn)(void *ctx), void *ctx);
/* Inside a task: give the thread back until done(ctx) or the timeout;
 * IPX_OK or IPX_ETIMEOUT, as ipx_loop_run_until. */
int task_wait(struct task_set *s, bool (*done)(void *ctx), void *ctx,
	      ipx_time timeout);
/* From the loop's thread: resume every task whose wait is over. 1 if any
 * ran. */
int task_resume_ready(struct task_set *s);

#endif
