/* SPDX-License-Identifier: MIT */
#include "console.h"
#include "harness/out.h"
#include "log_keep.h"
#include "screen.h"
#include "serial.h"

void console_init(const struct options *o, const struct boot_info *bi)
{
	out_set_tag(o->tag);
	out_add_sink(log_keep_sink);	/* every line, for the file saved at the end */
	if (serial_init(o->console_port, o->baud))
		out_add_sink(serial_write);
	if (screen_init(bi))
		out_add_sink(screen_log_sink);
}
