/*
 * battery.c - one test of the file-server benchmarks (bench_ncp.h) on the
 * harness: the same NCP operation on the first n agents at once. The
 * harness's barrier is what starts them together: every agent is
 * PREPAREd (connected and logged in to the server, its files open) and
 * answers READY before any gets GO; in time mode each stops at its own
 * clock's end of the same length from GO, so they stop together too.
 */
#include <stdio.h>
#include <string.h>

#include "ipxlab/bench_ncp.h"
#include "ipxlab/err.h"

#include "bench_util.h"

int ipx_bn_run(struct ipx_hctl *c, const struct ipx_bn_run_opts *o,
	       enum ipx_bn_op op, size_t n, double seconds, uint32_t count,
	       size_t size, uint16_t repeat, struct ipx_bw_result *results,
	       char *err, size_t errlen)
{
	struct ipx_hctl_task tasks[IPX_BN_MAX_STATIONS];
	struct ipx_hctl_run run;
	char label[96];
	ipx_time extra = o->timeout ? o->timeout : 30 * IPX_SEC;

	if (n == 0 || n > IPX_BN_MAX_STATIONS ||
	    n > ipx_hctl_agent_count(c) || (unsigned)op >= IPX_BN_OPS ||
	    (count == 0 && !(seconds > 0))) {
		ipx_bench_set_err(err, errlen, "%s: %zu workstation%s, %zu "
					       "agent%s attached",
				  ipx_bn_op_name(op) ? ipx_bn_op_name(op) : "?",
				  n, n == 1 ? "" : "s",
				  ipx_hctl_agent_count(c),
				  ipx_hctl_agent_count(c) == 1 ? "" : "s");
		return IPX_EINVAL;
	}
	memset(tasks, 0, sizeof(tasks));
	for (size_t i = 0; i < n; i++) {
		struct ipx_bw_params *p = &tasks[i].params;

		tasks[i].agent = i;
		tasks[i].role = IPX_BW_SENDER;
		tasks[i].cpu = -1;
		tasks[i].peer = -1;
		p->kind = IPX_BW_NCP;
		p->op = (uint8_t)op;
		p->station = (uint16_t)(i + 1);
		p->count = count;
		p->seconds = count ? 0 : seconds;
		p->size = size;
		p->peer.addr = o->server;
		p->setup_timeout = 10;
		p->ncp_buffer = o->ncp_buffer;
		p->ncp_no_burst = o->ncp_no_burst;
		p->single_frame = o->single_frame;
	}
	snprintf(label, sizeof(label), "%s with %zu workstation%s",
		 ipx_bn_op_name(op), n, n == 1 ? "" : "s");
	memset(&run, 0, sizeof(run));
	run.label = label;
	run.span = o->span;
	run.repeat = repeat;
	run.tasks = tasks;
	run.ntasks = n;
	run.ready_timeout = 15 * IPX_SEC;
	run.run_timeout = (ipx_time)((count ? 0 : seconds) * IPX_SEC) + extra;
	run.finish_timeout = 5 * IPX_SEC;
	return ipx_hctl_run(c, &run, results, err, errlen);
}
