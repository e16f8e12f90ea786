-- AlterTable
ALTER TABLE "sms_message" ADD COLUMN     "concat_ref" INTEGER,
ADD COLUMN     "part_ids" TEXT[] DEFAULT ARRAY[]::TEXT[];

