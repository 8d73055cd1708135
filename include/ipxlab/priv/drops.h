/*
 * drops.h - a module's drop-counter names and their accessor, written
 * once. Every module lists its drop counters as an X-macro whose entries
 * are X(id, name, desc) (IPX_DIAG_DROPS in diag.h, for one) and makes its
 * enum and its _COUNT from it; this makes, from the same list, the name
 * table drop_names[] (file scope, for the module's own stats printing)
 * and the public accessor, which answers "?" for a value out of range:
 *
 *   IPX_DROP_NAMES(IPX_DIAG_DROPS, enum ipx_diag_drop, IPX_DIAG_DROP_COUNT,
 *                  ipx_diag_drop_name)
 *
 * used at file scope, without a semicolon (it ends in a function body).
 */
#ifndef IPXLAB_PRIV_DROPS_H
#define IPXLAB_PRIV_DROPS_H

#define IPX_DROP_NAME_(id, name, desc) name,

#define IPX_DROP_NAMES(list, type, count, fn)                               \
	static const char *const drop_names[] = { list(IPX_DROP_NAME_) };    \
	_Static_assert(sizeof drop_names / sizeof drop_names[0] == (count),  \
		       #fn ": one name per drop counter");                   \
	const char *fn(type d)                                               \
	{                                                                    \
		return (unsigned)d < (unsigned)(count) ? drop_names[d] : "?"; \
	}

#endif
