// SPDX-License-Identifier: GPL-3.0-or-later
// What the two trace.dat readers without libtracecmd share: the whole-file load (TraceDatImporter) and
// the slice-at-a-time stream (TraceDatStream).
#pragma once

#include "DatLayout.h"

#include "model/Trace.h"

#include <memory>
#include <string>
#include <traceevent/event-parse.h>

namespace tickscope {

struct TepDeleter
{
    void operator()(tep_handle *t) const { tep_free(t); }
};

// Throws LoadError (naming the file) when the header page or an event format is missing or unreadable,
// before libtraceevent parses them.
void checkFormats(const std::string &path, const DatLayout &layout);
// A libtraceevent handle for this file's ring-buffer pages: byte order, long and page size, and the
// header page (checked by checkFormats first).
std::unique_ptr<tep_handle, TepDeleter> pageTep(const std::string &path, const DatLayout &layout);
// Metadata of one instance from the file's own options, and the trace sized to its CPUs (a LoadError
// naming the file for an implausible count).
void fillMetaFromLayout(Trace &trace, const std::string &path, const DatLayout &l, const DatBuffer &b);
// The facts a tickscope capture stored (MachineFacts): the kernel command line (nohz_full=, isolcpus=)
// and release come from them.
void applyMachineFacts(Trace &trace, const DatLayout &l);

} // namespace tickscope
