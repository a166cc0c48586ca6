/*
 * model-feed.c -- one protocol line fed to the model (docs/PROTOCOL.md):
 * the greeting, then a frame's lines (model-frame.c) and the replies to
 * the commands sent (model-reply.c).
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "model-int.h"
#include "model.h"
#include "protocol.h"
#include "fields.h"

/* Feed one line (without its newline) to the model. */
enum model_got
model_feed(struct model *m, const char *line)
{
	struct proto_fields	 f;
	char			 buf[4200];
	size_t			 len;
	long			 v;

	len = strlen(line);
	if (len > 0 && line[len - 1] == '\r')
		len--;
	if (len >= sizeof buf)
		return (model_bad(m, line, "line too long"));
	memcpy(buf, line, len);
	buf[len] = '\0';
	protocol_line(buf, PROTO_TEXT, &f);

	if (m->in_frame)
		return (model_frame_line(m, &f, line));

	if (!m->greeted) {
		if (strcmp(f.word, "stairs") != 0 || f.n < 2 ||
		    model_parse_num(f.f[0].key, &v, LONG_MIN) != 0)
			return (model_bad(m, line, "not a stairs daemon"));
		m->greeted = 1;
		m->proto = (int)v;
		snprintf(m->version, sizeof m->version, "%s", f.f[1].key);
		return (MODEL_GREETING);
	}
	if (strcmp(f.word, wire_frame.word) == 0)
		return (model_frame_start(m, &f, line));
	return (model_reply_line(m, &f, line));
}
