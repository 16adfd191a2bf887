#ifndef CWIDTH_H
#define CWIDTH_H
#include <stdint.h>
/// wcwidth(3) for one code point. Glibc declares wcwidth only under _XOPEN_SOURCE, which Swift's
/// Glibc module does not set, so it is wrapped here.
int riffle_wcwidth(uint32_t codepoint);
#endif
