/*
 * burst_query.c - ncp_burst_active (ncp_client.h) for a client without
 * packet burst: it never has burst. Placeholder until the burst branch
 * merges; the integrator deletes this file.
 */
#include "ipxlab/ncp_client.h"

bool ncp_burst_active(const struct ncp_client *cl) { (void)cl; return false; }
