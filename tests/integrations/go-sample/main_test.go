package orders

import (
	"os"
	"testing"

	"github.com/localdynamo/localdynamo/integrations/go"
)

// Run stops the shared server cleanly when the tests are done.
func TestMain(m *testing.M) { os.Exit(localdynamotest.Run(m)) }
