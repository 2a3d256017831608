package store

import (
	"testing"

	"github.com/bimri/bimri-hook/internal/testenv"
)

func TestMain(m *testing.M) { testenv.MainWithDataDir(m, DataEnv) }
