#ifndef RIFFLE_CCURLLAZY_H
#define RIFFLE_CCURLLAZY_H

// No declarations: the target defines libcurl's own functions (see ccurllazy.c) and is linked, not imported.

#endif
