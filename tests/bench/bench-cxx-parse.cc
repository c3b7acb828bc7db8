// bench-cxx-parse.cc — the C++ full parse that bench-open compares with
//
// SPDX-License-Identifier: GPL-3.0-or-later
//
//   bench-cxx-parse FILE.xplane.pb
//
// What a tool built on the profiler's own C++ code does to read a profile:
// the whole file read into memory, parsed by libprotobuf into an XSpace
// (the classes protoc generates from proto/xplane.proto), then the memory
// events of "/host:CPU" counted by their metadata names. Prints
// "memory_events=N" and the phases' seconds. Built only when libprotobuf's
// C++ library and protoc are found (docs/performance.md).

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <unordered_set>

#include "xplane.pb.h"

int
main (int argc, char **argv)
{
  using clock = std::chrono::steady_clock;

  if (argc != 2)
    {
      std::fprintf (stderr, "usage: bench-cxx-parse FILE\n");
      return 2;
    }

  auto t0 = clock::now ();
  std::ifstream in (argv[1], std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf ();
  std::string data = buffer.str ();
  if (!in)
    {
      std::fprintf (stderr, "bench-cxx-parse: cannot read %s\n", argv[1]);
      return 1;
    }

  auto t1 = clock::now ();
  tensorflow::profiler::XSpace space;
  if (!space.ParseFromString (data))
    {
      std::fprintf (stderr, "bench-cxx-parse: libprotobuf could not parse %s\n", argv[1]);
      return 1;
    }

  auto t2 = clock::now ();
  unsigned long long memory_events = 0;
  for (const auto &plane : space.planes ())
    {
      if (plane.name () != "/host:CPU")
        continue;
      std::unordered_set<long long> ids;
      for (const auto &entry : plane.event_metadata ())
        if (entry.second.name () == "MemoryAllocation" || entry.second.name () == "MemoryDeallocation")
          ids.insert (entry.first);
      for (const auto &line : plane.lines ())
        for (const auto &event : line.events ())
          if (ids.count (event.metadata_id ()) > 0)
            memory_events++;
    }
  auto t3 = clock::now ();

  auto seconds = [] (clock::time_point a, clock::time_point b) {
    return std::chrono::duration<double> (b - a).count ();
  };
  std::printf ("read_seconds=%.6f\n", seconds (t0, t1));
  std::printf ("parse_seconds=%.6f\n", seconds (t1, t2));
  std::printf ("walk_seconds=%.6f\n", seconds (t2, t3));
  std::printf ("memory_events=%llu\n", memory_events);
  std::fflush (stdout);
  // Freeing the parsed messages only costs time: the process ends.
  std::_Exit (0);
}
