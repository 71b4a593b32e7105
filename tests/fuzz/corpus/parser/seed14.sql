SET SESSION TIME ZONE DEFAULT;
SET standard_conforming_strings = on;
SET y = -1.5;
SET sluice.flag = true;
RESET ALL