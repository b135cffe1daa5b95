// SPDX-License-Identifier: GPL-3.0-or-later
// The libtracecmd/libtraceevent declarations tickscope uses. Debian's libtracecmd-dev ships only the
// public trace-cmd.h; the few getters below are exported by libtracecmd.so (3.x) and declared in
// upstream's trace-cmd-private.h. Only core/import/ includes this file.
#pragma once

#include <sys/types.h>
#include <traceevent/event-parse.h>

// trace-cmd.h pulls in tracefs.h, whose inline helpers do not compile as C++; the public functions we
// call are declared here with the signatures of libtracecmd 3.1.
extern "C" {
struct tracecmd_input;
enum
{
    TRACECMD_FL_LOAD_NO_PLUGINS = 1 << 0,
    TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS = 1 << 1
};
struct tracecmd_input *tracecmd_open(const char *file, int flags);
void tracecmd_close(struct tracecmd_input *handle);
struct tep_record *tracecmd_read_cpu_first(struct tracecmd_input *handle, int cpu);
struct tep_record *tracecmd_read_data(struct tracecmd_input *handle, int cpu);
void tracecmd_free_record(struct tep_record *record);
struct tep_handle *tracecmd_get_tep(struct tracecmd_input *handle);
int tracecmd_buffer_instances(struct tracecmd_input *handle);
const char *tracecmd_buffer_instance_name(struct tracecmd_input *handle, int indx);
struct tracecmd_input *tracecmd_buffer_instance_handle(struct tracecmd_input *handle, int indx);
void tracecmd_set_loglevel(enum tep_loglevel level);

int tracecmd_cpus(struct tracecmd_input *handle);
int tracecmd_page_size(struct tracecmd_input *handle);
int tracecmd_long_size(struct tracecmd_input *handle);
unsigned long tracecmd_get_in_file_version(struct tracecmd_input *handle);
const char *tracecmd_get_trace_clock(struct tracecmd_input *handle);
const char *tracecmd_get_uname(struct tracecmd_input *handle);
off64_t tracecmd_get_cpu_file_size(struct tracecmd_input *handle, int cpu);
int tracecmd_get_file_compress_proto(struct tracecmd_input *handle, const char **name, const char **version);
struct tep_record *tracecmd_read_cpu_last(struct tracecmd_input *handle, int cpu);
}
