/*
 * hubrig.h - a hub without a socket (detached) on a fake clock, with
 * simulated tunnel clients at 127.0.0.1:PORT, for the hub and bridge
 * tests: every datagram the hub would send is recorded in 'out'.
 */
#ifndef IPXLAB_TEST_HUBRIG_H
#define IPXLAB_TEST_HUBRIG_H

#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>

#include "ipxlab/clock.h"
#include "ipxlab/hub.h"
#include "ipxlab/loop.h"

#define HUBRIG_MAX 2100

struct hub_sent {
	struct sockaddr_in to;
	ipx_time at;			/* loop time it left */
	size_t len;
	uint8_t pkt[1500];
};

struct hub_rig {
	struct ipx_clock clk;
	struct ipx_loop *loop;
	struct ipx_hub *hub;
	int n;				/* datagrams recorded */
	struct hub_sent out[HUBRIG_MAX];
};

/* A hub "on port 213", the clock at 1 s. Never NULL (asserts). */
struct hub_rig *hubrig_new(void);
/* The same, as one segment with this link profile. */
struct hub_rig *hubrig_new_profile(const struct ipx_profile *profile);
/* The same with these options (bind, detached and the tap are the rig's). */
struct hub_rig *hubrig_new_opts(const struct ipx_hub_options *opts);
void hubrig_free(struct hub_rig *r);
/* The client at 127.0.0.1:port, and its node as the hub gives it. */
struct sockaddr_in hubrig_client(uint16_t port);
void hubrig_node(uint16_t port, uint8_t node[6]);
/* A datagram from that client; the hub's answers are flushed. */
void hubrig_input(struct hub_rig *r, uint16_t port, const uint8_t *p,
		  size_t len);
/* A registration request of IPX type 'type' from that client. */
void hubrig_register(struct hub_rig *r, uint16_t port, uint8_t type);

#endif
