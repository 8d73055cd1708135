/*
 * cm.h - includes every cmocka test needs, in the order cmocka wants.
 */
#ifndef IPXLAB_TEST_CM_H
#define IPXLAB_TEST_CM_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#endif
