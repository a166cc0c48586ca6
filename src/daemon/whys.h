/*
 * whys.h -- the why of each CPU's last pick, for frames (SPEC.md section
 * 10): per engine (the enforced one, slot 0, and each shadow of compare,
 * slots 1..WHYS_SLOTS-1) and per CPU, the last why line the engine gave,
 * its tick, and the generation it came at, so that a delta frame
 * carries only the lines new since the client's last frame.
 */
#ifndef STAIRS_WHYS_H
#define STAIRS_WHYS_H

#include <stddef.h>
#include <stdint.h>

#define WHYS_SLOTS	4	/* the enforced engine and three shadows */

struct engine;
struct whys;

struct whys	*whys_create(void);
void		 whys_free(struct whys *);
/* Forget slot's lines (-1: every slot's): a new session, new shadows. */
void		 whys_clear(struct whys *, int slot);
/* Keep the why lines of e's last tick (tick) in slot, at gen. */
void		 whys_take(struct whys *, int slot, const struct engine *,
		    uint64_t tick, uint64_t gen);
/*
 * Append to out the lines of slot newer than gen from (0: all it has),
 * in CPU order: "why cpu=C tick=T task=ID text=..." for slot 0, "swhy
 * cpu=C tick=T task=ID policy=NAME text=..." for a shadow (policy: its
 * name).  Returns the bytes appended.
 */
size_t		 whys_lines(const struct whys *, int slot, uint64_t from,
		    const char *policy,
		    void (*out)(void *, const char *, size_t), void *arg);

#endif
