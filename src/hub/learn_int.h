/*
 * learn_int.h - the hub's table of nodes learned behind its bridge ports
 * (hub.c; docs/hub.md "Bridge ports"): node -> port, with an ageing time,
 * of bounded size. Internal to src/hub.
 */
#ifndef IPXLAB_HUB_LEARN_INT_H
#define IPXLAB_HUB_LEARN_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ipxlab/clock.h"

struct hub_learn;

/* FNV-1a of a node, folded into nbuckets (a power of two) buckets. */
size_t hub_node_hash(const uint8_t node[6], size_t nbuckets);

/* At most 'max' nodes; an entry not refreshed for 'age' is forgotten. */
struct hub_learn *hub_learn_new(size_t max, ipx_time age);
void hub_learn_free(struct hub_learn *l);
/* Learn (or refresh, or move) node -> port; false if the table is full
 * (a full table is swept for aged entries at most once a second). */
bool hub_learn_put(struct hub_learn *l, const uint8_t node[6], void *port,
		   ipx_time now);
/* The port the node is behind, or NULL (unknown or aged out). */
void *hub_learn_get(struct hub_learn *l, const uint8_t node[6], ipx_time now);
void hub_learn_forget(struct hub_learn *l, const uint8_t node[6]);
/* Forget every node behind this port (it left). */
void hub_learn_forget_port(struct hub_learn *l, const void *port);
/* Entries held (some may have aged out but not yet been looked at). */
size_t hub_learn_count(const struct hub_learn *l);
/* Drop the entries that have aged out; how many are left. */
size_t hub_learn_expire(struct hub_learn *l, ipx_time now);

#endif
