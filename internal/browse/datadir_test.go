package browse

import (
	"testing"

	"github.com/bimri/bimri-hook/internal/testenv"
	"github.com/bimri/bimri-hook/store"
)

func TestMain(m *testing.M) { testenv.MainWithDataDir(m, store.DataEnv) }
