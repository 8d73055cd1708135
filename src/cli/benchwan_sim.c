/*
 * benchwan_sim.c - the network of "ipxlab bench wan --sim" (benchwan.h):
 * all of B6 in this process in simulated time, on two networks of
 * bench_sim.h, each its own fake clock: the local case on one segment of
 * the LAN profile, the bridged case on two such segments (the server
 * alone on one) joined by the in-process WAN bridge of --wan-profile,
 * with spare nodes on either side of it for the limit search's load
 * (in real time the library builds the far side: bench_fsnet.h).
 */
#include <stdlib.h>
#include <unistd.h>

#include "benchwan.h"
#include "cli.h"
#include "ipxlab/err.h"

#define CMD "bench"

int wan_sim_start(struct wan *t)
{
	struct ipx_bsim_opts o = { .profile = &t->b.profile,
				   .stations = t->b.agents, .seed = t->b.seed,
				   .period = t->b.have_period ? &t->b.period
							      : NULL };
	struct ipx_node *from, *to;
	char err[768];
	int rc;

	cli_hold_stop_signals();	/* until the loops watch them */
	for (int side = 0; side < 2; side++) {
		o.wan = side ? &t->prof : NULL;
		o.name = side ? "WANFAR-SIM" : "WANLOCAL-SIM";
		if (ipx_bsim_new(&o, &t->sim[side], err, sizeof(err)) !=
		    IPX_OK) {
			cli_error(CMD, "wan --sim, %s network: %s",
				  side ? "bridged" : "local", err);
			return CLI_FAIL;
		}
		t->o.ctl[side] = ipx_bsim_ctl(t->sim[side]);
		t->o.side[side] = *ipx_bsim_run_opts(t->sim[side]);
		cli_stop_on_signals(ipx_bsim_loop(t->sim[side]));
	}
	/* the load: from the server's segment to the workstations', as the
	 * far hub's node sends it to the controller's in real time */
	rc = ipx_bsim_spare_node(t->sim[1], IPX_BSIM_SERVER, &from);
	if (rc == IPX_OK)
		rc = ipx_bsim_spare_node(t->sim[1], IPX_BSIM_STATIONS, &to);
	if (rc == IPX_OK)
		rc = ipx_bwan_flood_new(from, to, &t->o.flood);
	if (rc == IPX_OK)	/* and the same load back */
		rc = ipx_bwan_flood_new(to, from, &t->flood_up);
	t->o.lo.up = t->flood_up;
	if (rc != IPX_OK) {
		cli_error(CMD, "wan --sim: the load's nodes: %s",
			  ipx_strerror(rc));
		return CLI_FAIL;
	}
	snprintf(t->b.n.srvname, sizeof(t->b.n.srvname), "%s",
		 ipx_bsim_server_name(t->sim[0]));
	snprintf(t->far_name, sizeof(t->far_name), "%s",
		 ipx_bsim_server_name(t->sim[1]));
	snprintf(t->b.n.hubtext, sizeof(t->b.n.hubtext), "in-process");
	snprintf(t->far_hub, sizeof(t->far_hub), "in-process");
	t->b.n.nseen = ipx_hctl_agent_count(t->o.ctl[0]);
	for (size_t i = 0; i < t->b.n.nseen && i < IPX_BN_MAX_STATIONS; i++)
		t->b.n.seen[i] = *ipx_hctl_agent_at(t->o.ctl[0], i);
	return CLI_OK;
}

void wan_sim_seconds(struct wan *t)
{
	for (int side = 0; side < 2; side++)
		if (t->sim[side])
			t->sim_seconds[side] = ipx_bsim_seconds(t->sim[side]);
	/* what the shared conditions (fsbench_jw_conditions) print */
	t->b.n.sim_seconds = t->sim_seconds[0] + t->sim_seconds[1];
}

void wan_sim_stop(struct wan *t)
{
	ipx_bwan_flood_free(t->o.flood);	/* before its nodes go */
	ipx_bwan_flood_free(t->flood_up);
	t->o.flood = t->flood_up = NULL;
	t->o.lo.up = NULL;
	for (int side = 0; side < 2; side++) {
		ipx_bsim_free(t->sim[side]);
		t->sim[side] = NULL;
		t->o.ctl[side] = NULL;
	}
}

/* ---- real time: the network's (bench_fsnet.h), its far side among it ---- */

void wan_far_take(struct wan *t)
{
	const struct ipx_fsnet_far *f = &t->b.n.far;

	t->o.ctl[0] = t->o.ctl[1] = t->b.n.ctl;	/* one controller, */
	t->o.side[0] = t->b.n.ro;		/* two servers */
	t->o.side[1] = f->ro;
	t->o.flood = f->flood;
	t->o.lo.up = f->flood_up;
	snprintf(t->far_hub, sizeof(t->far_hub), "%s", f->hub);
	snprintf(t->far_name, sizeof(t->far_name), "%s", f->name);
}

void wan_far_drop(struct wan *t)
{
	t->o.flood = NULL;	/* the library's, stopped with the network */
	t->o.lo.up = NULL;
}
