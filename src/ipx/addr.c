/*
 * addr.c - IPX addresses: comparison, parsing and printing.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "ipxlab/err.h"
#include "ipxlab/ipx.h"

const uint8_t ipx_node_broadcast[IPX_NODE_LEN] = { 0xFF, 0xFF, 0xFF,
						   0xFF, 0xFF, 0xFF };
const uint8_t ipx_node_zero[IPX_NODE_LEN];

bool ipx_node_is_broadcast(const uint8_t node[IPX_NODE_LEN])
{
	return memcmp(node, ipx_node_broadcast, IPX_NODE_LEN) == 0;
}

bool ipx_node_is_zero(const uint8_t node[IPX_NODE_LEN])
{
	return memcmp(node, ipx_node_zero, IPX_NODE_LEN) == 0;
}

bool ipx_node_eq(const uint8_t a[IPX_NODE_LEN], const uint8_t b[IPX_NODE_LEN])
{
	return memcmp(a, b, IPX_NODE_LEN) == 0;
}

bool ipx_addr_eq(const struct ipx_addr *a, const struct ipx_addr *b)
{
	return a->net == b->net && a->socket == b->socket &&
	       ipx_node_eq(a->node, b->node);
}

bool ipx_addr_match(const struct ipx_addr *a, const struct ipx_addr *b)
{
	return (a->net == b->net || a->net == 0 || b->net == 0) &&
	       a->socket == b->socket && ipx_node_eq(a->node, b->node);
}

static int hexval(char ch)
{
	int c = (unsigned char)ch;

	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* Parse 1..maxdigits hex digits from *p (after an optional 0x). */
static int parse_hex(const char **p, unsigned maxdigits, uint64_t *out)
{
	const char *s = *p;
	unsigned n = 0;
	uint64_t v = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && hexval(s[2]) >= 0)
		s += 2;
	while (hexval(*s) >= 0) {
		if (++n > maxdigits)
			return IPX_EINVAL;
		v = (v << 4) | (uint64_t)hexval(*s);
		s++;
	}
	if (n == 0)
		return IPX_EINVAL;
	*p = s;
	*out = v;
	return IPX_OK;
}

static int parse_node(const char **p, uint8_t node[IPX_NODE_LEN])
{
	const char *s = *p;
	uint64_t v;

	/* Six bytes joined by '-': 7f-00-00-01-12-34. */
	if (hexval(s[0]) >= 0 && hexval(s[1]) >= 0 && s[2] == '-') {
		for (int i = 0; i < IPX_NODE_LEN; i++) {
			int hi = hexval(s[0]), lo = hi < 0 ? -1 : hexval(s[1]);

			if (lo < 0)
				return IPX_EINVAL;
			node[i] = (uint8_t)(hi << 4 | lo);
			s += 2;
			if (i < IPX_NODE_LEN - 1) {
				if (*s != '-')
					return IPX_EINVAL;
				s++;
			}
		}
		*p = s;
		return IPX_OK;
	}
	if (parse_hex(&s, 12, &v))
		return IPX_EINVAL;
	for (int i = IPX_NODE_LEN - 1; i >= 0; i--) {
		node[i] = (uint8_t)v;
		v >>= 8;
	}
	*p = s;
	return IPX_OK;
}

int ipx_addr_parse(const char *text, struct ipx_addr *out)
{
	const char *s = text;
	struct ipx_addr a;
	uint64_t v;
	char sep;

	if (!text)
		return IPX_EINVAL;
	if (parse_hex(&s, 8, &v))
		return IPX_EINVAL;
	a.net = (uint32_t)v;
	sep = *s;
	if (sep != ':' && sep != '.')
		return IPX_EINVAL;
	s++;
	if (parse_node(&s, a.node))
		return IPX_EINVAL;
	if (*s != sep)
		return IPX_EINVAL;
	s++;
	if (parse_hex(&s, 4, &v))
		return IPX_EINVAL;
	a.socket = (uint16_t)v;
	if (*s != '\0')
		return IPX_EINVAL;
	*out = a;
	return IPX_OK;
}

int ipx_socket_parse(const char *text, uint16_t *out)
{
	const char *s = text;
	uint64_t v;

	if (!text || parse_hex(&s, 4, &v) || *s != '\0')
		return IPX_EINVAL;
	*out = (uint16_t)v;
	return IPX_OK;
}

char *ipx_node_format(const uint8_t node[IPX_NODE_LEN], char out[13])
{
	snprintf(out, 13, "%02X%02X%02X%02X%02X%02X", node[0], node[1], node[2],
		 node[3], node[4], node[5]);
	return out;
}

char *ipx_addr_format(const struct ipx_addr *addr, char out[IPX_ADDR_STRLEN])
{
	char node[13];

	snprintf(out, IPX_ADDR_STRLEN, "%08X:%s:%04X", (unsigned)addr->net,
		 ipx_node_format(addr->node, node), addr->socket);
	return out;
}
