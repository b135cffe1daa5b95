// SPDX-License-Identifier: GPL-3.0-or-later
#include "MachineFacts.h"

#include <charconv>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/utsname.h>
#include <zlib.h>

namespace tickscope {

namespace {

std::string firstLine(const std::string &path)
{
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    return line;
}

// CONFIG_HZ from /boot/config-<release>, or /proc/config.gz when the kernel offers it.
int configHz(const std::string &release)
{
    auto scan = [](std::istream &in) {
        std::string line;
        while (std::getline(in, line)) {
            if (line.rfind("CONFIG_HZ=", 0) == 0) {
                int hz = 0;
                std::from_chars(line.data() + 10, line.data() + line.size(), hz);
                return hz;
            }
        }
        return 0;
    };
    std::ifstream boot("/boot/config-" + release);
    if (boot) return scan(boot);
    if (gzFile z = gzopen("/proc/config.gz", "rb")) {
        std::string text;
        char buf[65536];
        int n;
        while ((n = gzread(z, buf, sizeof buf)) > 0)
            text.append(buf, static_cast<size_t>(n));
        gzclose(z);
        std::istringstream in(text);
        return scan(in);
    }
    return 0;
}

} // namespace

std::string MachineFacts::serialize() const
{
    std::string s;
    auto kv = [&](std::string_view k, const std::string &v) {
        if (v.empty()) return;
        s.append(k).append("=").append(v).append("\n");
    };
    kv("release", kernelRelease);
    kv("cmdline", cmdline);
    if (hz > 0) kv("hz", std::to_string(hz));
    kv("online", onlineCpus);
    if (nohzFullKnown) s += "nohz_full=" + nohzFull + "\n"; // written even when empty: "none"
    kv("isolated", isolated);
    kv("cpuidle_driver", cpuidleDriver);
    kv("idle_states", idleStates);
    return s;
}

MachineFacts MachineFacts::parse(std::string_view text)
{
    MachineFacts m;
    while (!text.empty()) {
        const size_t nl = text.find('\n');
        const std::string_view line = text.substr(0, nl);
        text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
        const size_t eq = line.find('=');
        if (eq == std::string_view::npos) continue;
        const std::string_view k = line.substr(0, eq);
        const std::string v(line.substr(eq + 1));
        if (k == "release")
            m.kernelRelease = v;
        else if (k == "cmdline")
            m.cmdline = v;
        else if (k == "hz")
            std::from_chars(v.data(), v.data() + v.size(), m.hz);
        else if (k == "online")
            m.onlineCpus = v;
        else if (k == "nohz_full")
            m.nohzFullKnown = true, m.nohzFull = v;
        else if (k == "isolated")
            m.isolated = v;
        else if (k == "cpuidle_driver")
            m.cpuidleDriver = v;
        else if (k == "idle_states")
            m.idleStates = v;
    }
    return m;
}

MachineFacts MachineFacts::ofThisMachine()
{
    MachineFacts m;
    utsname u{};
    if (uname(&u) == 0) m.kernelRelease = u.release;
    m.cmdline = firstLine("/proc/cmdline");
    m.hz = configHz(m.kernelRelease);
    m.onlineCpus = firstLine("/sys/devices/system/cpu/online");
    // nohz_full: "(null)" or an empty line when the kernel has no nohz_full CPUs, and no file at all when
    // it is built without CONFIG_NO_HZ_FULL (then none can be); `isolated` (3.14+) tells a kernel that
    // lacks the file for that reason from one too old to have either.
    if (std::ifstream nf("/sys/devices/system/cpu/nohz_full"); nf) {
        m.nohzFullKnown = true;
        std::getline(nf, m.nohzFull);
        if (m.nohzFull == "(null)" || m.nohzFull == " ") m.nohzFull.clear();
    } else if (std::ifstream("/sys/devices/system/cpu/isolated")) {
        m.nohzFullKnown = true;
    }
    m.isolated = firstLine("/sys/devices/system/cpu/isolated");
    m.cpuidleDriver = firstLine("/sys/devices/system/cpu/cpuidle/current_driver");
    if (m.cpuidleDriver == "none") m.cpuidleDriver.clear();
    namespace fs = std::filesystem;
    std::error_code ec;
    for (int k = 0; k < 16; ++k) {
        const std::string dir = "/sys/devices/system/cpu/cpu0/cpuidle/state" + std::to_string(k);
        if (!fs::exists(dir, ec)) break;
        if (!m.idleStates.empty()) m.idleStates += ',';
        m.idleStates += firstLine(dir + "/name") + ":" + firstLine(dir + "/latency");
    }
    return m;
}

} // namespace tickscope
