/*
 * fsnet_far.c - B6's far side of the file-server benchmarks' network in
 * real time (bench_fsnet.h, fsnet_int.h): the WAN bridge forked between
 * the workstations' hub and a far hub it serves, the far server forked
 * there (its buffer as behind a 576-byte bridge), a node of the
 * controller's on the far hub as the load's source, and the load both ways
 * (bench_wan.h's floods).
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <unistd.h>

#include "fsnet_int.h"
#include "ipxlab/bench_wan.h"
#include "ipxlab/config.h"
#include "ipxlab/err.h"
#include "ipxlab/node.h"

int ipx_fsnet_far_start(struct ipx_fsnet *n, char *err, size_t errlen)
{
	struct ipx_fsnet_far *f = &n->far;
	struct sockaddr_in near, far;
	struct ipx_config cfg;
	ipx_time wait = (ipx_time)(n->o.wait * IPX_SEC);
	const char *what = n->o.name;
	char why[768];
	int rc;

	ipx_hnet_hub(n->net, &near);
	rc = ipx_wanbr_fork(&near, n->o.far,
			    n->o.have_profile ? &n->o.profile : NULL, wait,
			    &far, &f->bridge, why, sizeof(why));
	if (rc != IPX_OK) {
		snprintf(err, errlen, "%s: cannot start the bridge: %s", what,
			 why);
		return rc;
	}
	snprintf(f->hub, sizeof(f->hub), "127.0.0.1:%d", ntohs(far.sin_port));
	snprintf(f->name, sizeof(f->name), "WANFAR-%d", (int)getpid());
	rc = ipx_fsrv_fork_buf(&far, f->name, n->dir, n->o.far_max_buffer,
			       wait, &f->srv, why, sizeof(why));
	if (rc != IPX_OK) {
		snprintf(err, errlen, "%s: cannot start the far server: %s",
			 what, why);
		return rc;
	}
	ipx_config_defaults(&cfg);
	rc = ipx_hnet_join_on(n->loop, &far, &cfg, wait, &f->node, why,
			      sizeof(why));
	if (rc != IPX_OK) {
		snprintf(err, errlen, "%s: the bridge's hub at %s: %s", what,
			 f->hub, why);
		return rc;
	}
	rc = ipx_bwan_flood_new(f->node, n->node, &f->flood);
	if (rc == IPX_OK)	/* and the same load back */
		rc = ipx_bwan_flood_new(n->node, f->node, &f->flood_up);
	if (rc != IPX_OK) {
		snprintf(err, errlen, "%s: the load's sockets: %s", what,
			 ipx_strerror(rc));
		return rc;
	}
	f->ro = n->ro;
	return ipx_fsnet_find_server(n, f->name, &f->ro.server, err, errlen);
}

void ipx_fsnet_far_stop(struct ipx_fsnet *n)
{
	struct ipx_fsnet_far *f = &n->far;

	ipx_bwan_flood_free(f->flood);
	ipx_bwan_flood_free(f->flood_up);
	f->flood = f->flood_up = NULL;
	ipx_node_free(f->node);
	f->node = NULL;
	ipx_fsrv_stop(&f->srv);
	ipx_fsrv_stop(&f->bridge);
}
