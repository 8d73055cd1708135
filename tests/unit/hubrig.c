/*
 * hubrig.c - the detached hub the hub and bridge tests drive (hubrig.h).
 */
#include "cm.h"

#include "hubrig.h"

#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include "ipxlab/err.h"

static void tap(const struct sockaddr_in *to, const uint8_t *pkt, size_t len,
		void *ctx)
{
	struct hub_rig *r = ctx;

	if (r->n >= HUBRIG_MAX)
		return;
	r->out[r->n].to = *to;
	r->out[r->n].at = ipx_loop_now(r->loop);
	r->out[r->n].len = len;
	memcpy(r->out[r->n].pkt, pkt, len);
	r->n++;
}

struct hub_rig *hubrig_new(void)
{
	return hubrig_new_profile(NULL);
}

struct hub_rig *hubrig_new_profile(const struct ipx_profile *profile)
{
	struct ipx_hub_options o = { .profile = profile };

	return hubrig_new_opts(&o);
}

struct hub_rig *hubrig_new_opts(const struct ipx_hub_options *opts)
{
	struct hub_rig *r = calloc(1, sizeof(*r));
	struct ipx_hub_options o = *opts;
	char err[128];

	assert_non_null(r);
	o.detached = true;
	o.tap = tap;
	o.tap_ctx = r;
	o.bind.sin_family = AF_INET;
	o.bind.sin_port = htons(213);
	ipx_clock_fake_init(&r->clk, IPX_SEC);
	r->loop = ipx_loop_new(&r->clk);
	assert_int_equal(ipx_hub_open(r->loop, &o, &r->hub, err, sizeof(err)),
			 IPX_OK);
	return r;
}

void hubrig_free(struct hub_rig *r)
{
	ipx_hub_close(r->hub);
	ipx_loop_free(r->loop);
	free(r);
}

struct sockaddr_in hubrig_client(uint16_t port)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };

	sa.sin_addr.s_addr = htonl(0x7F000001);
	sa.sin_port = htons(port);
	return sa;
}

void hubrig_node(uint16_t port, uint8_t node[6])
{
	struct sockaddr_in sa = hubrig_client(port);

	memcpy(node, &sa.sin_addr.s_addr, 4);
	memcpy(node + 4, &sa.sin_port, 2);
}

void hubrig_input(struct hub_rig *r, uint16_t port, const uint8_t *p,
		  size_t len)
{
	struct sockaddr_in sa = hubrig_client(port);

	ipx_hub_input(r->hub, &sa, p, len);
	ipx_hub_flush(r->hub);
}

void hubrig_register(struct hub_rig *r, uint16_t port, uint8_t type)
{
	uint8_t p[30] = { 0 };

	p[0] = p[1] = 0xFF;
	p[3] = 30;
	p[5] = type;
	p[17] = 2;	/* dst socket 2 */
	p[29] = 2;
	hubrig_input(r, port, p, 30);
}
