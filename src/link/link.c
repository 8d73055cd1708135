/*
 * link.c - what every link driver shares.
 */
#include "ipxlab/link.h"

void ipx_link_set_up(struct ipx_link *link, bool up)
{
	if (link->up == up)
		return;
	link->up = up;
	if (link->on_state)
		link->on_state(link, up, link->state_ctx);
}
