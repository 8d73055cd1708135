/*
 * task.c - functions that wait on their own stack (ipx_loop_spawn, loop.h):
 * inside a task, ipx_loop_run_until does not run the loop but gives the
 * thread back to whoever resumed the task; the loop resumes it once what
 * it waits for is true or its time is up. So synchronous clients that
 * share one loop (the benchmarks' workstations in simulated time) wait
 * side by side instead of one inside another's wait.
 *
 * Stacks are kept for reuse (one per task running at once). With
 * AddressSanitizer the switches are announced to it (its fiber API).
 */
#include <stdlib.h>
#include <ucontext.h>

#include "ipxlab/err.h"
#include "ipxlab/loop.h"

#include "loop_int.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#define FIBER_START(save, bottom, size) \
	__sanitizer_start_switch_fiber(save, bottom, size)
#define FIBER_FINISH(save, bottom, size) \
	__sanitizer_finish_switch_fiber(save, bottom, size)
#else
#define FIBER_START(save, bottom, size) ((void)(save), (void)(bottom), \
					 (void)(size))
#define FIBER_FINISH(save, bottom, size) ((void)(save), (void)(bottom), \
					  (void)(size))
#endif

#define STACK_SIZE (512 * 1024)

struct task {
	struct task_set *set;
	ucontext_t ctx, back;	/* its own; where it gives the thread back */
	void *stack;
	void (*fn)(void *ctx);
	void *arg;
	bool busy;		/* spawned and not finished */
	bool waiting;
	bool (*done)(void *ctx);
	void *dctx;
	ipx_time end;
	struct ipx_timer deadline;	/* makes a simulated clock move there */
	/* AddressSanitizer's view of the stacks */
	void *fake;
	const void *back_bottom;
	size_t back_size;
	struct task *next;
};

struct task_set {
	struct ipx_loop *loop;
	struct task *all;
	struct task *current;	/* running now, or NULL: the loop's thread */
};

struct task_set *task_set_new(struct ipx_loop *loop)
{
	struct task_set *s = calloc(1, sizeof(*s));

	if (s)
		s->loop = loop;
	return s;
}

void task_set_free(struct task_set *s)
{
	if (!s)
		return;
	/* a task still waiting is abandoned with its stack */
	while (s->all) {
		struct task *t = s->all;

		s->all = t->next;
		ipx_timer_stop(s->loop, &t->deadline);
		free(t->stack);
		free(t);
	}
	free(s);
}

bool task_busy(const struct task_set *s)
{
	for (const struct task *t = s ? s->all : NULL; t; t = t->next)
		if (t->busy)
			return true;
	return false;
}

bool task_current(const struct task_set *s)
{
	return s && s->current;
}

static void on_deadline(struct ipx_loop *loop, struct ipx_timer *t, void *ctx)
{
	(void)loop;
	(void)t;
	(void)ctx;	/* the resume pass after the timers looks */
}

/* The task enter() is switching to, for trampoline (one thread). */
static struct task *entering;

/* From the loop's thread into t, until it waits or ends. */
static void enter(struct task *t)
{
	struct task_set *s = t->set;
	void *fake = NULL;

	s->current = t;
	entering = t;
	FIBER_START(&fake, t->stack, STACK_SIZE);
	swapcontext(&t->back, &t->ctx);
	FIBER_FINISH(fake, NULL, NULL);
	s->current = NULL;
}

static void trampoline(void)
{
	struct task *t = entering;

	FIBER_FINISH(NULL, &t->back_bottom, &t->back_size);
	t->fn(t->arg);
	t->busy = false;
	FIBER_START(NULL, t->back_bottom, t->back_size);
	swapcontext(&t->ctx, &t->back);
	abort();	/* a finished task is never resumed */
}

int task_spawn(struct task_set *s, void (*fn)(void *ctx), void *ctx)
{
	struct task *t;

	if (s && s->current) {	/* inside a task already: wait in it */
		fn(ctx);
		return IPX_OK;
	}
	if (!s)
		return IPX_ENOMEM;
	for (t = s->all; t && t->busy; t = t->next)
		;
	if (!t) {
		t = calloc(1, sizeof(*t));
		if (t)
			t->stack = malloc(STACK_SIZE);
		if (!t || !t->stack) {
			free(t);
			return IPX_ENOMEM;
		}
		t->set = s;
		ipx_timer_init(&t->deadline, on_deadline, t);
		t->next = s->all;
		s->all = t;
	}
	if (getcontext(&t->ctx) < 0)
		return IPX_EIO;
	t->ctx.uc_stack.ss_sp = t->stack;
	t->ctx.uc_stack.ss_size = STACK_SIZE;
	t->ctx.uc_link = NULL;
	makecontext(&t->ctx, trampoline, 0);
	t->fn = fn;
	t->arg = ctx;
	t->busy = true;
	t->waiting = false;
	enter(t);
	return IPX_OK;
}

int task_wait(struct task_set *s, bool (*done)(void *ctx), void *ctx,
	      ipx_time timeout)
{
	struct task *t = s->current;

	t->waiting = true;
	t->done = done;
	t->dctx = ctx;
	t->end = ipx_loop_now(s->loop) + timeout;
	ipx_timer_start(s->loop, &t->deadline, timeout, 0);
	FIBER_START(&t->fake, t->back_bottom, t->back_size);
	swapcontext(&t->ctx, &t->back);
	FIBER_FINISH(t->fake, &t->back_bottom, &t->back_size);
	ipx_timer_stop(s->loop, &t->deadline);
	if (done && done(ctx))
		return IPX_OK;
	return IPX_ETIMEOUT;
}

int task_resume_ready(struct task_set *s)
{
	ipx_time now;
	int ran = 0;

	if (!s || s->current)
		return 0;
	now = ipx_loop_now(s->loop);
	for (struct task *t = s->all; t; t = t->next) {
		if (!t->busy || !t->waiting)
			continue;
		if ((t->done && t->done(t->dctx)) ||
		    !ipx_time_before(now, t->end)) {
			t->waiting = false;
			enter(t);
			ran = 1;
		}
	}
	return ran;
}
