/* Size-versioned public structs: the caller sets .size to sizeof the struct it was built with; a
 * struct only grows at its end, so a member exists in the caller's copy when the size covers it. */
#ifndef DSI_SIZED_H
#define DSI_SIZED_H

#include <stddef.h>

/* The caller's struct *p (of public type `type`) is large enough to hold member. */
#define DSI_SIZE_COVERS(p, type, member) ((p)->size >= offsetof(type, member) + sizeof(((type *)0)->member))

#endif
