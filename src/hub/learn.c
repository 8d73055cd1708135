/*
 * learn.c - the nodes the hub has learned behind its bridge ports
 * (learn_int.h): a chained hash over a fixed pool of entries, so a flood
 * of made-up source nodes costs a bounded amount of memory.
 */
#include "learn_int.h"

#include <stdlib.h>
#include <string.h>

struct entry {
	uint8_t node[6];
	void *port;
	ipx_time seen;
	struct entry *next;		/* hash chain, or free list */
};

struct hub_learn {
	size_t max, count, nbuckets;
	ipx_time age;
	ipx_time scanned;		/* when a full table was last swept */
	bool scanned_once;
	struct entry **buckets;
	struct entry *free;
	struct entry pool[];
};

size_t hub_node_hash(const uint8_t node[6], size_t nbuckets)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (int i = 0; i < 6; i++) {
		h ^= node[i];
		h *= 0x100000001b3ull;
	}
	return (size_t)(h ^ (h >> 29)) & (nbuckets - 1);
}

static size_t bucket_of(const struct hub_learn *l, const uint8_t node[6])
{
	return hub_node_hash(node, l->nbuckets);
}

struct hub_learn *hub_learn_new(size_t max, ipx_time age)
{
	struct hub_learn *l;
	size_t nb = 16;

	if (!max)
		return NULL;
	while (nb < max)
		nb *= 2;
	l = calloc(1, sizeof(*l) + max * sizeof(l->pool[0]));
	if (!l)
		return NULL;
	l->buckets = calloc(nb, sizeof(*l->buckets));
	if (!l->buckets) {
		free(l);
		return NULL;
	}
	l->max = max;
	l->nbuckets = nb;
	l->age = age;
	for (size_t i = 0; i < max; i++) {
		l->pool[i].next = l->free;
		l->free = &l->pool[i];
	}
	return l;
}

void hub_learn_free(struct hub_learn *l)
{
	if (!l)
		return;
	free(l->buckets);
	free(l);
}

/* The link that points at the node's entry (or at NULL at the chain's end). */
static struct entry **find(struct hub_learn *l, const uint8_t node[6])
{
	struct entry **pp = &l->buckets[bucket_of(l, node)];

	while (*pp && memcmp((*pp)->node, node, 6))
		pp = &(*pp)->next;
	return pp;
}

static void unlink_entry(struct hub_learn *l, struct entry **pp)
{
	struct entry *e = *pp;

	*pp = e->next;
	e->next = l->free;
	l->free = e;
	l->count--;
}

size_t hub_learn_expire(struct hub_learn *l, ipx_time now)
{
	for (size_t b = 0; b < l->nbuckets; b++) {
		struct entry **pp = &l->buckets[b];

		while (*pp) {
			if (now - (*pp)->seen >= l->age)
				unlink_entry(l, pp);
			else
				pp = &(*pp)->next;
		}
	}
	return l->count;
}

bool hub_learn_put(struct hub_learn *l, const uint8_t node[6], void *port,
		   ipx_time now)
{
	struct entry **pp = find(l, node);
	struct entry *e = *pp;

	if (!e) {
		/* Full: sweep out aged entries, at most once a second, so
		 * a flood of made-up sources cannot cost a sweep each. */
		if (!l->free) {
			if (l->scanned_once && now - l->scanned < IPX_SEC)
				return false;
			l->scanned = now;
			l->scanned_once = true;
			if (hub_learn_expire(l, now) == l->max)
				return false;
		}
		e = l->free;
		l->free = e->next;
		memcpy(e->node, node, 6);
		pp = &l->buckets[bucket_of(l, node)];
		e->next = *pp;
		*pp = e;
		l->count++;
	}
	e->port = port;
	e->seen = now;
	return true;
}

void *hub_learn_get(struct hub_learn *l, const uint8_t node[6], ipx_time now)
{
	struct entry **pp = find(l, node);

	if (!*pp)
		return NULL;
	if (now - (*pp)->seen >= l->age) {
		unlink_entry(l, pp);
		return NULL;
	}
	return (*pp)->port;
}

void hub_learn_forget(struct hub_learn *l, const uint8_t node[6])
{
	struct entry **pp = find(l, node);

	if (*pp)
		unlink_entry(l, pp);
}

void hub_learn_forget_port(struct hub_learn *l, const void *port)
{
	for (size_t b = 0; b < l->nbuckets; b++) {
		struct entry **pp = &l->buckets[b];

		while (*pp) {
			if ((*pp)->port == port)
				unlink_entry(l, pp);
			else
				pp = &(*pp)->next;
		}
	}
}

size_t hub_learn_count(const struct hub_learn *l)
{
	return l->count;
}
