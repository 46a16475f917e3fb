// Runs the decode loop: one eager step, one capture, then graph replays.
#include "decoder.h"
#include <cstdio>

int main() {
  Decoder d;
  d.init(/*dim=*/64, /*vocab=*/1000, /*max_tokens=*/16);
  d.step();
  d.capture_step();
  for (int t = 0; t < 8; ++t)
    std::printf("token %d: %d\n", t, d.replay_step());
  return 0;
}
