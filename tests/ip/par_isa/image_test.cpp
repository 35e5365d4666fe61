// Binary program images: round trip, and rejection of truncated, corrupt and foreign files.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include <unistd.h>

#include "support/temp_dir.hpp"
#include "isa_test_support.hpp"
#include "par/isa/assembler.hpp"
#include "par/isa/image.hpp"

namespace par::isa {
namespace {

Program sample() {
  const AssemblyResult r = assemble(
      ".PAR\n.ADDRESS main\n.THREADS 12\n.I1 v\n.I15 -3\n.CODE\nmain:   ld8 r1 = i1[0]\n"
      "        add r1 = r1, 1\n        st8 i1[0] = r1 #\n.DATA 0x2000\nv: .i64 41\nw: .zero 3\n"
      ".DATA 0x10\n .i8 9\n",
      "sample.par");
  EXPECT_TRUE(r.ok()) << r.messages();
  return *r.program;
}

void expect_equal(const Program& a, const Program& b) {
  EXPECT_EQ(a.kind, b.kind);
  EXPECT_EQ(a.start, b.start);
  EXPECT_EQ(a.threads, b.threads);
  EXPECT_EQ(a.inherited, b.inherited);
  EXPECT_EQ(a.code, b.code);
  ASSERT_EQ(a.data.size(), b.data.size());
  for (std::size_t i = 0; i < a.data.size(); ++i) {
    EXPECT_EQ(a.data[i].address, b.data[i].address);
    EXPECT_EQ(a.data[i].bytes, b.data[i].bytes);
  }
  EXPECT_EQ(a.code_labels, b.code_labels);
  EXPECT_EQ(a.data_labels, b.data_labels);
  EXPECT_EQ(a.source_file, b.source_file);
  EXPECT_EQ(a.source_lines, b.source_lines);
}

// Rewrites the trailing CRC so that a forged image passes the checksum and reaches the
// structural checks.
void reseal(std::vector<std::uint8_t>& img) {
  const std::uint32_t c = test::crc32(img.data(), img.size() - 4);
  for (int i = 0; i < 4; ++i) img[img.size() - 4 + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(c >> (8 * i));
}

void put_u32(std::vector<std::uint8_t>& img, std::size_t off, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) img.at(off + static_cast<std::size_t>(i)) = static_cast<std::uint8_t>(v >> (8 * i));
}

// Layout offsets (README "Program image format").
constexpr std::size_t kVersionOff = 8, kKindOff = 12, kThreadsOff = 24, kCodeCountOff = 152;

TEST(Image, RoundTripKeepsEverything) {
  const Program p = sample();
  const std::vector<std::uint8_t> img = write_image(p);
  std::string err;
  const std::optional<Program> q = read_image(img, &err);
  ASSERT_TRUE(q.has_value()) << err;
  expect_equal(p, *q);
}

TEST(Image, LayoutStartsWithMagicVersionAndHeader) {
  const std::vector<std::uint8_t> img = write_image(sample());
  const std::uint8_t magic[] = {'P', 'A', 'R', 'I', 'M', 'G', 0x1A, '\n'};
  ASSERT_GT(img.size(), 160u);
  EXPECT_TRUE(std::equal(std::begin(magic), std::end(magic), img.begin()));
  EXPECT_EQ(img[kVersionOff], 1);
  EXPECT_EQ(img[kKindOff], 0);  // packet
  EXPECT_EQ(img[kThreadsOff], 12);
  EXPECT_EQ(img[kCodeCountOff], 3);
}

TEST(Image, ProgramWithoutDebugInfoRoundTrips) {
  Program p = sample();
  p.source_file.clear();
  p.source_lines.clear();
  p.code_labels.clear();
  p.data_labels.clear();
  p.kind = ProgramKind::Master;
  p.threads = 0;
  const std::vector<std::uint8_t> img = write_image(p);
  EXPECT_LT(img.size(), write_image(sample()).size());
  std::string err;
  const std::optional<Program> q = read_image(img, &err);
  ASSERT_TRUE(q.has_value()) << err;
  expect_equal(p, *q);
  EXPECT_EQ(q->location(1), "pc 1");
}

TEST(Image, AssembledExamplesRoundTrip) {
  for (const auto& f : test::all_programs()) {
    const AssemblyResult r = assemble_file(f.string());
    ASSERT_TRUE(r.ok()) << r.messages();
    std::string err;
    const std::optional<Program> q = read_image(write_image(*r.program), &err);
    ASSERT_TRUE(q.has_value()) << f << ": " << err;
    expect_equal(*r.program, *q);
  }
}

TEST(Image, RejectsForeignAndEmptyFiles) {
  std::string err;
  EXPECT_FALSE(read_image({}, &err).has_value());
  EXPECT_EQ(err, "not a PAR program image (bad magic)");
  const std::string text = ".PAR\n.ADDRESS 0\n";
  EXPECT_FALSE(read_image(std::vector<std::uint8_t>(text.begin(), text.end()), &err).has_value());
  EXPECT_EQ(err, "not a PAR program image (bad magic)");
  EXPECT_FALSE(read_image({'P', 'A', 'R', 'I', 'M', 'G', 0x1A, '\n'}, &err).has_value());
  EXPECT_EQ(err, "truncated image");
  EXPECT_FALSE(read_image({0x7F, 'E', 'L', 'F', 2, 1, 1, 0, 0, 0, 0, 0}, nullptr).has_value());
}

TEST(Image, RejectsEveryTruncation) {
  const std::vector<std::uint8_t> img = write_image(sample());
  for (std::size_t n = 0; n < img.size(); ++n) {
    std::string err;
    EXPECT_FALSE(read_image(std::vector<std::uint8_t>(img.begin(), img.begin() + static_cast<std::ptrdiff_t>(n)), &err))
        << n;
    EXPECT_FALSE(err.empty());
  }
}

TEST(Image, RejectsEveryFlippedByte) {
  const std::vector<std::uint8_t> img = write_image(sample());
  for (std::size_t i = 0; i < img.size(); ++i) {
    std::vector<std::uint8_t> bad = img;
    bad[i] ^= 0x5A;
    std::string err;
    EXPECT_FALSE(read_image(bad, &err).has_value()) << i;
    EXPECT_FALSE(err.empty());
  }
}

TEST(Image, RejectsStructurallyBadImagesWithValidChecksum) {
  const std::vector<std::uint8_t> good = write_image(sample());
  auto check = [&](std::vector<std::uint8_t> img, const std::string& want) {
    reseal(img);
    std::string err;
    EXPECT_FALSE(read_image(img, &err).has_value()) << want;
    EXPECT_EQ(err, want);
  };
  {
    auto img = good;
    img[kVersionOff] = 9;
    check(img, "unsupported image version 9");
  }
  {
    auto img = good;
    img[kKindOff] = 2;
    check(img, "bad program kind 2");
  }
  {
    auto img = good;
    img[kKindOff + 1] = 1;
    check(img, "reserved header bits set");
  }
  {
    auto img = good;
    img[kThreadsOff + 7] = 0x80;
    check(img, "negative thread count");
  }
  {
    auto img = good;
    put_u32(img, kCodeCountOff, 0xFFFFFFFFu);  // huge count: must not allocate
    check(img, "truncated code section");
  }
  {
    auto img = good;
    put_u32(img, kCodeCountOff + 4, 0x7E000000u);  // first code word: reserved op6 63
    check(img, "illegal instruction at address 0: unassigned opcode 63");
  }
  {
    auto img = good;
    img.insert(img.end() - 4, 0);  // one byte too many before the checksum
    check(img, "unexpected bytes after the image");
  }
  {
    auto img = good;
    const std::size_t nsec = kCodeCountOff + 4 + 3 * 4;
    put_u32(img, nsec, 0x10000000u);
    check(img, "truncated data sections");
  }
  {
    auto img = good;
    const std::size_t len = kCodeCountOff + 4 + 3 * 4 + 4 + 8;  // length of the first section
    put_u32(img, len, 0xFFFFFFF0u);
    check(img, "truncated data section");
  }
}

// Mutations that keep the checksum valid reach the structural parser: it must return a program
// or an error, never crash or over-allocate.
TEST(Image, MutatedImagesWithValidChecksumNeverCrash) {
  const std::vector<std::uint8_t> good = write_image(sample());
  std::mt19937 rng(31);
  int rejected = 0;
  for (int k = 0; k < 3000; ++k) {
    std::vector<std::uint8_t> img = good;
    const int edits = 1 + static_cast<int>(rng() % 3);
    for (int e = 0; e < edits; ++e) {
      const std::size_t at = 8 + rng() % (img.size() - 12);  // keep magic and checksum slot
      switch (rng() % 3) {
        case 0: img[at] = static_cast<std::uint8_t>(rng()); break;
        case 1: img.erase(img.begin() + static_cast<std::ptrdiff_t>(at)); break;
        default: img.insert(img.begin() + static_cast<std::ptrdiff_t>(at), static_cast<std::uint8_t>(rng())); break;
      }
    }
    reseal(img);
    std::string err;
    const std::optional<Program> p = read_image(img, &err);
    if (!p) {
      ++rejected;
      EXPECT_FALSE(err.empty());
    } else {
      EXPECT_TRUE(read_image(write_image(*p), &err).has_value()) << err;
    }
  }
  EXPECT_GT(rejected, 1000);
}

TEST(Image, RejectsOverlappingSectionsAndBadLabels) {
  Program p = sample();
  p.data[1].address = 0x2004;  // inside the first section
  std::string err;
  EXPECT_FALSE(read_image(write_image(p), &err).has_value());
  EXPECT_EQ(err, "overlapping data sections");
  p = sample();
  p.code_labels["r3"] = 0;
  EXPECT_FALSE(read_image(write_image(p), &err).has_value());
  EXPECT_EQ(err, "bad code label name");
  p = sample();
  p.source_lines.pop_back();
  EXPECT_FALSE(read_image(write_image(p), &err).has_value());
  EXPECT_EQ(err, "line table does not match the code");
}

TEST(Image, SaveAndLoadFiles) {
  const Program p = sample();
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("parsys_image_test_" + std::to_string(::getpid()) + ".bin");
  std::string err;
  ASSERT_TRUE(save_image(p, path.string(), &err)) << err;
  const std::optional<Program> q = load_image(path.string(), &err);
  ASSERT_TRUE(q.has_value()) << err;
  expect_equal(p, *q);
  {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f << "not an image";
  }
  EXPECT_FALSE(load_image(path.string(), &err).has_value());
  EXPECT_EQ(err, path.string() + ": not a PAR program image (bad magic)");
  std::filesystem::remove(path);
  EXPECT_FALSE(load_image(path.string(), &err).has_value());
  EXPECT_EQ(err, "cannot read '" + path.string() + "': No such file or directory");
  EXPECT_FALSE(save_image(p, "/nonexistent/dir/x.bin", &err));
  EXPECT_EQ(err, "cannot open '/nonexistent/dir/x.bin' for writing");
}

TEST(Image, ChecksumIsTheIeeeCrc32) {
  const std::string check = "123456789";  // the CRC-32 check value
  EXPECT_EQ(image_checksum(reinterpret_cast<const std::uint8_t*>(check.data()), check.size()), 0xCBF43926u);
  const std::vector<std::uint8_t> img = write_image(Program{});
  EXPECT_EQ(image_checksum(img.data(), img.size() - 4), test::crc32(img.data(), img.size() - 4));
}

// Inputs that are not image files: one message each, no exception, no unbounded read.
TEST(Image, DirectoriesDevicesAndUnreadableFilesAreRefused) {
  std::string err;
  const std::string dir = std::filesystem::temp_directory_path().string();
  EXPECT_FALSE(load_image(dir, &err).has_value());
  EXPECT_EQ(err, "cannot read '" + dir + "': it is a directory");
  EXPECT_FALSE(load_image("/dev/zero", &err).has_value());
  EXPECT_EQ(err, "cannot read '/dev/zero': it is a device, not a file");
  // A file larger than the limit is refused by its size, before it is read (a sparse file here).
  const std::string big = par::testing::temp_dir("image") + "/big.bin";
  { std::ofstream create(big); }
  std::filesystem::resize_file(big, (std::uint64_t{1} << 30) + 1);
  EXPECT_FALSE(load_image(big, &err).has_value());
  EXPECT_EQ(err, "cannot read '" + big + "': it is larger than 1 GiB, the limit for this kind of input");
  std::filesystem::remove(big);
  EXPECT_FALSE(load_image("/proc/self/mem", &err).has_value());
  EXPECT_EQ(err, "cannot read '/proc/self/mem': read error: Input/output error");
}

}  // namespace
}  // namespace par::isa
