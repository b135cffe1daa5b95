// SPDX-License-Identifier: GPL-3.0-or-later
// The libtracefs functions the capture calls, with the signatures of libtracefs 1.6. tracefs.h's inline
// helpers do not compile as C++, so it is not included; only core/capture/ includes this file.
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

extern "C" {
struct tracefs_instance;
struct tracefs_cpu;
struct tracefs_instance *tracefs_instance_alloc(const char *tracing_dir, const char *name);
int tracefs_instance_destroy(struct tracefs_instance *instance);
void tracefs_instance_free(struct tracefs_instance *instance);
int tracefs_instance_set_buffer_size(struct tracefs_instance *instance, size_t size, int cpu);
int tracefs_trace_on(struct tracefs_instance *instance);
int tracefs_trace_off(struct tracefs_instance *instance);
int tracefs_event_enable(struct tracefs_instance *instance, const char *system, const char *event);
struct tracefs_cpu *tracefs_cpu_open(struct tracefs_instance *instance, int cpu, bool nonblock);
void tracefs_cpu_close(struct tracefs_cpu *tcpu);
int tracefs_cpu_buffered_read(struct tracefs_cpu *tcpu, void *buffer, bool nonblock);
int tracefs_cpu_flush(struct tracefs_cpu *tcpu, void *buffer);
int tracefs_cpu_read_size(struct tracefs_cpu *tcpu);
}
