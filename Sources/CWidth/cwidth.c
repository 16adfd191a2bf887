#define _XOPEN_SOURCE 700
#include <wchar.h>
#include "cwidth.h"

int riffle_wcwidth(uint32_t codepoint) { return wcwidth((wchar_t)codepoint); }
