/* The buffer a transport callback fills (ds_reply): a body and an error message, owned by the library. */
#ifndef DSI_CTRL_REPLY_H
#define DSI_CTRL_REPLY_H

#include "core/strbuf.h"
#include "daemonset/controller.h"

struct ds_reply {
	dsi_strbuf body;
	char *message;
	size_t limit; /* maxDocumentBytes */
	int over;     /* the body went beyond the limit */
};

void dsi_reply_init(ds_reply *r, size_t limit);
void dsi_reply_release(ds_reply *r);
/* Append: DS_ELIMIT (with err filled) once the body would go beyond the limit; what came before
 * is kept, the reply is marked over and every later append is refused too. */
int dsi_reply_write(ds_reply *r, const char *data, size_t size, ds_error *err);
/* Set (copied) or, with NULL, clear the message. */
int dsi_reply_set_message(ds_reply *r, const char *message, ds_error *err);

#endif
