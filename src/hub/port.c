/*
 * port.c - a bridge port on a running hub (hub_port.h): a tunnel link
 * that, once registered, announces itself with the bridge-port message
 * (portmsg.c) until the hub answers, and then passes frames both ways.
 */
#include "ipxlab/hub_port.h"

#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include "ipxlab/err.h"
#include "ipxlab/hub.h"
#include "ipxlab/ipx.h"
#include "ipxlab/link_udp.h"
#include "ipxlab/log.h"

#define RETRY_FIRST (250 * IPX_MSEC)
#define RETRY_MAX (2 * IPX_SEC)
#define REFRESH (10 * IPX_SEC)

struct ipx_hub_port {
	struct ipx_loop *loop;
	struct ipx_link *link;
	struct sockaddr_in hub;
	ipx_time timeout;
	ipx_time asked;			/* when the first announcement went */
	ipx_time retry;
	enum ipx_hub_port_state state;
	struct ipx_timer timer;		/* retries, then refreshes */
	ipx_hub_port_rx_cb rx;
	ipx_hub_port_state_cb on_state;
	void *ctx;
	struct ipx_hub_port_stats stats;
};

static const char *const state_names[] = {
	[IPX_HUB_PORT_JOINING] = "joining",
	[IPX_HUB_PORT_UP] = "up",
	[IPX_HUB_PORT_NO_ANSWER] = "no_answer",
	[IPX_HUB_PORT_UNSUPPORTED] = "unsupported",
	[IPX_HUB_PORT_REFUSED] = "refused",
};

const char *ipx_hub_port_state_name(enum ipx_hub_port_state s)
{
	return s <= IPX_HUB_PORT_REFUSED ? state_names[s] : "?";
}

static void set_state(struct ipx_hub_port *p, enum ipx_hub_port_state s)
{
	if (p->state == s)
		return;
	p->state = s;
	if (s != IPX_HUB_PORT_UP)
		ipx_timer_stop(p->loop, &p->timer);
	if (p->on_state)
		p->on_state(p, s, p->ctx);
}

static void announce(struct ipx_hub_port *p)
{
	uint8_t msg[IPX_HUB_PORT_MSG_LEN];

	ipx_hub_port_msg(msg, ipx_hub_keepalive_node, p->link->node,
			 IPX_HUB_MSG_ANNOUNCE);
	if (ipx_link_send(p->link, msg, sizeof(msg), NULL) == IPX_OK)
		p->stats.announces++;
}

/* A registration request as DOSBox sends it (the link consumes the
 * answer): a hub that restarted knows the port again. */
static void reregister(struct ipx_hub_port *p)
{
	uint8_t pkt[IPX_HDR_LEN];

	ipx_udp_registration_encode(pkt);
	ipx_link_send(p->link, pkt, sizeof(pkt), NULL);
}

static void tick(struct ipx_loop *loop, struct ipx_timer *t, void *ctx)
{
	struct ipx_hub_port *p = ctx;
	ipx_time now = ipx_loop_now(loop);

	if (p->state == IPX_HUB_PORT_UP) {
		reregister(p);
		announce(p);
		ipx_timer_start(loop, t, REFRESH, 0);
		return;
	}
	if (!ipx_time_before(now, p->asked + p->timeout)) {
		set_state(p, IPX_HUB_PORT_UNSUPPORTED);
		return;
	}
	announce(p);
	ipx_timer_start(loop, t,
			p->retry < p->asked + p->timeout - now
				? p->retry
				: p->asked + p->timeout - now,
			0);
	p->retry = p->retry * 2 > RETRY_MAX ? RETRY_MAX : p->retry * 2;
}

static void on_link_state(struct ipx_link *link, bool up, void *ctx)
{
	struct ipx_hub_port *p = ctx;

	(void)link;
	if (!up) {
		if (p->state == IPX_HUB_PORT_JOINING)
			set_state(p, IPX_HUB_PORT_NO_ANSWER);
		return;
	}
	p->asked = ipx_loop_now(p->loop);
	p->retry = RETRY_FIRST;
	ipx_timer_start(p->loop, &p->timer, 0, 0);
}

static void on_link_rx(struct ipx_link *link, const uint8_t *pkt, size_t len,
		       void *ctx)
{
	struct ipx_hub_port *p = ctx;
	int op = ipx_hub_port_msg_parse(pkt, len);

	(void)link;
	if (op == IPX_HUB_MSG_ACCEPTED || op == IPX_HUB_MSG_REFUSED) {
		p->stats.answers++;
		if (op == IPX_HUB_MSG_REFUSED) {
			set_state(p, IPX_HUB_PORT_REFUSED);
		} else if (p->state == IPX_HUB_PORT_JOINING) {
			set_state(p, IPX_HUB_PORT_UP);
			ipx_timer_start(p->loop, &p->timer, REFRESH, 0);
		}
		return;
	}
	if (p->state != IPX_HUB_PORT_UP) {
		/* Still an ordinary client: this is not the segment's all. */
		p->stats.rx_early++;
		return;
	}
	p->stats.rx_frames++;
	p->stats.rx_bytes += len;
	if (p->rx)
		p->rx(p, pkt, len, p->ctx);
}

int ipx_hub_port_open(struct ipx_loop *loop, const struct sockaddr_in *hub,
		      ipx_time timeout, ipx_hub_port_rx_cb rx,
		      ipx_hub_port_state_cb on_state, void *ctx,
		      struct ipx_hub_port **out)
{
	struct ipx_hub_port *p = calloc(1, sizeof(*p));
	struct ipx_udp_options uo = { 0 };
	int rc;

	if (!p)
		return IPX_ENOMEM;
	p->loop = loop;
	p->hub = *hub;
	p->timeout = timeout ? timeout : 10 * IPX_SEC;
	p->rx = rx;
	p->on_state = on_state;
	p->ctx = ctx;
	uo.register_timeout = p->timeout;
	rc = ipx_udp_link_open(loop, hub, &uo, &p->link);
	if (rc != IPX_OK) {
		free(p);
		return rc;
	}
	p->link->rx = on_link_rx;
	p->link->rx_ctx = p;
	p->link->on_state = on_link_state;
	p->link->state_ctx = p;
	ipx_timer_init(&p->timer, tick, p);
	*out = p;
	return IPX_OK;
}

void ipx_hub_port_close(struct ipx_hub_port *p)
{
	if (!p)
		return;
	ipx_timer_stop(p->loop, &p->timer);
	ipx_link_close(p->link);
	free(p);
}

int ipx_hub_port_send(struct ipx_hub_port *p, const uint8_t *pkt, size_t len)
{
	int rc = p->state == IPX_HUB_PORT_UP
			 ? ipx_link_send(p->link, pkt, len, NULL)
			 : IPX_ENOTUP;

	if (rc != IPX_OK) {
		p->stats.tx_refused++;
		return rc;
	}
	p->stats.tx_frames++;
	p->stats.tx_bytes += len;
	return IPX_OK;
}

enum ipx_hub_port_state ipx_hub_port_state(const struct ipx_hub_port *p)
{
	return p->state;
}

void ipx_hub_port_node(const struct ipx_hub_port *p, uint8_t node[6])
{
	memcpy(node, p->link->node, IPX_NODE_LEN);
}

const struct ipx_hub_port_stats *ipx_hub_port_stats(
	const struct ipx_hub_port *p)
{
	return &p->stats;
}

void ipx_hub_port_print_stats(const struct ipx_hub_port *p, FILE *out)
{
	const struct ipx_hub_port_stats *s = &p->stats;
	char ip[INET_ADDRSTRLEN], n[13];

	inet_ntop(AF_INET, &p->hub.sin_addr, ip, sizeof(ip));
	fprintf(out,
		"port_hub %s:%u\nport_state %s\nport_node %s\n"
		"port_rx_frames %llu\nport_rx_bytes %llu\nport_tx_frames %llu\n"
		"port_tx_bytes %llu\ndrop_port_tx_refused %llu\n"
		"port_announces_sent %llu\nport_answers %llu\n"
		"drop_port_rx_early %llu\n",
		ip, ntohs(p->hub.sin_port), ipx_hub_port_state_name(p->state),
		ipx_node_format(p->link->node, n),
		(unsigned long long)s->rx_frames,
		(unsigned long long)s->rx_bytes,
		(unsigned long long)s->tx_frames,
		(unsigned long long)s->tx_bytes,
		(unsigned long long)s->tx_refused,
		(unsigned long long)s->announces,
		(unsigned long long)s->answers,
		(unsigned long long)s->rx_early);
}
