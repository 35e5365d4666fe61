// The translation unit that compiles tests/support/precompiled.hpp (target parsys_test_pch).
