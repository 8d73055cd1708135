/*
 * bytes.h - accessors for big-endian wire fields.
 *
 * Wire formats are read and written only through these, never by casting a
 * struct onto packet bytes, so alignment and byte order never matter.
 */
#ifndef IPXLAB_BYTES_H
#define IPXLAB_BYTES_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

static inline uint16_t ipx_get16(const uint8_t *p)
{
	return (uint16_t)((p[0] << 8) | p[1]);
}

static inline uint32_t ipx_get32(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) |
	       ((uint32_t)p[2] << 8) | p[3];
}

static inline void ipx_put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline void ipx_put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static inline uint16_t ipx_get16le(const uint8_t *p)
{
	return (uint16_t)(p[0] | (p[1] << 8));
}

static inline void ipx_put16le(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static inline uint32_t ipx_get32le(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

#ifdef __cplusplus
}
#endif

#endif
