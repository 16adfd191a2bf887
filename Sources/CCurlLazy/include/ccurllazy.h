#ifndef RIFFLE_CCURLLAZY_H
#define RIFFLE_CCURLLAZY_H

/// 1 when this build routes libcurl through the lazy loader (release builds of riffle), else 0.
int riffle_curl_is_lazy(void);

#endif
